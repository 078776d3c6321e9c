import { firstIncompleteStep, isStepComplete, isStepLocked, needsFormEDocuments } from '../../../../shared/journey/completeness';
import { journeyStepTitle } from '../../../../shared/journey/display';
import { customerSteps, lawyerSteps, type FormStep, type Journey, type JourneyStep } from '../../../../shared/journey/steps';
import { paths } from '../../../routing/paths';
import type { StepBarItem } from './step-bar';
import type { Audience } from './steps/step-definition';
import { RESUME_STEP } from './wizard-routes';
import { blockingSteps } from './live-journey';

export type JourneyVersions = Partial<Record<JourneyStep, number>>;

/** The steps of the audience's form, in order, and their titles (spec section 2). */
export function stepsFor(audience: Audience): readonly FormStep[] {
  return audience === 'lawyer' ? lawyerSteps : customerSteps;
}

export function stepTitle(audience: Audience, step: FormStep): string {
  return journeyStepTitle(step, audience);
}

export function isFormStep(audience: Audience, value: string): value is FormStep {
  return (stepsFor(audience) as readonly string[]).includes(value);
}

/** The step after this one, or null after the last (spec: then /applications). */
export function nextStep(audience: Audience, step: FormStep): FormStep | null {
  const steps = stepsFor(audience);
  const index = steps.indexOf(step);
  return index >= 0 && index + 1 < steps.length ? steps[index + 1]! : null;
}

/**
 * The saved journey as this device knows it: the server's copy, with the steps saved since (this
 * screen's saves and saves still waiting in the outbox) laid over it. Locking and the step bar use
 * it, so a step saved offline opens the next one.
 */
export function overlayJourney(base: Journey, ...overlays: Partial<Journey>[]): Journey {
  return overlays.reduce<Journey>((journey, overlay) => ({ ...journey, ...overlay }), { ...base });
}

/**
 * Where the route should go instead, or null when the step may be shown:
 * - the resume slug → the first incomplete step;
 * - a locked (lawyer) or unreachable (customer) step → the first incomplete step;
 * - the independent-advice step with Form E declared but no documents → the documents step.
 */
export function redirectFor(audience: Audience, requested: string, journey: Journey): FormStep | null {
  const steps = stepsFor(audience);
  const first = firstIncompleteStep(steps, journey, audience);
  if (requested === RESUME_STEP) return first;
  if (!isFormStep(audience, requested)) return null;
  if (isStepLocked(steps, requested, journey, audience)) return requested === first ? null : first;
  if (requested === 'independent' && needsFormEDocuments(journey)) return 'asset';
  return null;
}

/**
 * The step bar: disabled when locked or unreachable (the spec's rule). Ticked when the step is
 * complete and its saved answers pass the step's rules: a step the submit would refuse (a Form E
 * whose files were deleted, a solicitor no longer listed) is marked for attention instead, and the
 * summary is never ticked before the application is submitted (decision 332).
 */
export function stepBarItems(
  audience: Audience,
  applicationId: number | string,
  journey: Journey | null,
  { allDisabled = false }: { allDisabled?: boolean } = {},
): StepBarItem[] {
  const steps = stepsFor(audience);
  const blockers: readonly FormStep[] = journey ? blockingSteps(journey, audience) : [];
  return steps.map((step) => {
    const locked = allDisabled || journey === null || isStepLocked(steps, step, journey, audience);
    const saved = step !== 'summary' && journey !== null && isStepComplete(step, journey, audience);
    return {
      step,
      title: stepTitle(audience, step),
      href: locked ? null : paths.applicationStep.url({ id: applicationId, step }),
      complete: saved && !blockers.includes(step),
      attention: saved && blockers.includes(step),
    };
  });
}
