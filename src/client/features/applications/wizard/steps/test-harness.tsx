import { useState } from 'react';
import { vi } from 'vitest';
import type { JourneyStep } from '../../../../../shared/journey/steps';
import type { Audience, StepDefinition } from './step-definition';

/**
 * Renders a step's form as the wizard does (tests only): the values live here, every change and
 * touch is recorded, and `latest()` gives the current values.
 */
export function stepHarness<S extends JourneyStep, V>(definition: StepDefinition<S, V>, initial?: V) {
  const onTouch = vi.fn<(path: string) => void>();
  let current: V = initial ?? definition.empty();
  function Harness({
    audience = 'lawyer',
    errors = {},
    disabled = false,
  }: {
    audience?: Audience;
    errors?: Record<string, string>;
    disabled?: boolean;
  }) {
    const [values, setValues] = useState<V>(current);
    const Form = definition.Form;
    return (
      <Form
        values={values}
        onChange={(next) => {
          current = next;
          setValues(next);
        }}
        onTouch={onTouch}
        errors={errors}
        audience={audience}
        applicationId={1}
        disabled={disabled}
      />
    );
  }
  return { Harness, onTouch, latest: () => current };
}
