import { useCallback, useMemo } from 'react';
import type { JourneyData, JourneyStep } from '../../../../shared/journey/steps';
import { validateStep } from '../../../../shared/journey/validate';
import { useDraftForm } from '../../../offline/draft-form';
import type { Audience, StepDefinition } from './steps/step-definition';

/**
 * Field codes as the server sent them, keyed by this form's fields: a create refused because the
 * email already has an account names the account's `login`, which the form asks for as the
 * client's email. Every way server codes reach a step form (an answer, a refused draft) comes here.
 */
function formCodes(codes: Record<string, string>): Record<string, string> {
  const { login, ...rest } = codes;
  return login ? { ...rest, email: login } : rest;
}

export interface StepFormOptions<S extends JourneyStep, V> {
  def: StepDefinition<S, V>;
  /** The device's draft of this step (null: nothing to load yet). */
  draftKey: string | null;
  /** The server's copy of the step (undefined: never saved). */
  serverData: JourneyData[S] | undefined;
  /** The version of the server's copy (0 when never saved). */
  serverVersion: number;
  audience: Audience;
}

/**
 * One step's form: the draft-backed form (offline/draft-form.ts) configured with the step's shared
 * rule (validateStep), the server's copy when the device keeps no draft, and another tab's typing
 * of the same step merged in (decision 341).
 *
 * `dirty`: the values differ from what was last saved to the server or queued for it. The spec's
 * leave question is asked then. The unsaved mark (update prompt, sign-out) only covers what is not
 * yet on the device.
 */
export function useStepForm<S extends JourneyStep, V>({
  def,
  draftKey,
  serverData,
  serverVersion,
  audience,
}: StepFormOptions<S, V>) {
  const validate = useCallback(
    (values: V) => validateStep(def.step, def.toJourney(values), { audience, today: new Date() }),
    [def, audience],
  );
  const form = useDraftForm<V, JourneyData[S]>({
    draftKey,
    parseDraft: def.parseDraft,
    initial: () => def.fromJourney(serverData),
    validate,
    serverVersion,
    formCodes,
    mergeOtherTabs: true,
  });

  const values = form.values;
  const journeyData = useMemo(() => (values === null ? undefined : def.toJourney(values)), [def, values]);

  return {
    loaded: form.loaded,
    values,
    onChange: form.onChange as (next: V) => void,
    onTouch: form.touch,
    errors: form.errors,
    journeyData,
    /** The shared rules' result for the values now. */
    validation: form.check,
    dirty: form.dirty,
    keptOnDevice: form.keptOnDevice,
    baseVersion: form.baseVersion,
    draft: form.draft,
    markSubmitted: form.markSubmitted,
    /** The server refused the values: its codes go on the fields until edited. */
    setServerCodes: form.setServerCodes,
    /** These values were saved or queued: the form is clean again. */
    markSaved: (saved: V) => form.markSaved(saved),
    replaceValues: form.replaceValues,
  };
}
