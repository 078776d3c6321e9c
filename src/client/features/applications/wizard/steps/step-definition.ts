import type { ComponentType } from 'react';
import type { JourneyData, JourneyStep } from '../../../../../shared/journey/steps';
import type { components } from '../../../../../shared/api/schema';

type ApplicationAbilities = components['schemas']['ApplicationAbilities'];

/** Who is filling the form: the copy says 'your client' to the lawyer and 'you' to the client. */
export type Audience = 'lawyer' | 'customer';

/**
 * What a step's form gets from the wizard. Values are the form's own JSON-serialisable shape
 * (strings while typing, so '12.' or an empty number survive); they are what the device keeps as
 * the draft. `errors` holds the messages to show now, by field path ('addressHistory.1.date').
 */
export interface StepFormProps<V> {
  values: V;
  onChange: (next: V) => void;
  /** A field was left: its error may show from now on. */
  onTouch: (path: string) => void;
  errors: Readonly<Record<string, string>>;
  audience: Audience;
  /** The application's id, or the device's local id (`local-…`) of one not yet created. */
  applicationId: number | string;
  /** Form controls are disabled (a save is under way, or the application can no longer be edited). */
  disabled: boolean;
  /** What the caller may do with the application, as the server said (absent: not on the server yet). */
  abilities?: ApplicationAbilities;
}

/**
 * One journey step: its form, and the conversion between the form's values and the step's journey
 * data (the API shape that the shared valibot schema checks on both sides).
 */
export interface StepDefinition<S extends JourneyStep, V> {
  step: S;
  empty: () => V;
  fromJourney: (data: JourneyData[S] | undefined) => V;
  /** The journey data for these values; possibly invalid: validateStep decides. */
  toJourney: (values: V) => JourneyData[S];
  /** Parses a stored draft (written by any earlier version); null when it cannot be used. */
  parseDraft: (stored: unknown) => V | null;
  Form: ComponentType<StepFormProps<V>>;
}
