import { journeySteps, type Journey, type JourneyStep } from './steps';
import type { Audience } from './required';
import { validateStep } from './validate';

/**
 * The steps of the submitter's own form that must all be valid to submit (docs/decisions.md: the
 * lawyer's five, whose consent and authority stand in for the client's confirmation; the client's six).
 */
export function stepsToSubmit(audience: Audience): readonly JourneyStep[] {
  return audience === 'customer' ? journeySteps : journeySteps.filter((s) => s !== 'client');
}

/**
 * What blocks a submit: the steps of the audience's form whose saved answers fail the step rules, in
 * form order. The server adds what only it can see (the named Form E files still live).
 */
export function submitBlockers(journey: Journey | null | undefined, audience: Audience, context: { today: Date }): JourneyStep[] {
  const saved = (journey ?? {}) as Partial<Record<JourneyStep, unknown>>;
  return stepsToSubmit(audience).filter(
    (step) => !validateStep(step, saved[step] ?? {}, { audience, today: context.today }).success,
  );
}
