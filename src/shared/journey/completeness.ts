import { isFilled, requiredFields, type Audience } from './required';
import { customerSteps, lawyerSteps, type FormStep, type Journey, type JourneyStep } from './steps';

/**
 * Which steps count as done, locked or reachable (spec section 2 "Application wizard" and section 5
 * "Completeness"). Works on the saved journey only: what is on the server decides the step bar.
 */

type Data = Record<string, unknown>;

function stepData(journey: Journey | null | undefined, step: JourneyStep): Data {
  const data = journey?.[step];
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Data) : {};
}

/** How many of the step's required fields (given its answers) are filled. */
export function requiredFilled(step: JourneyStep, data: unknown, audience: Audience): { filled: number; required: number } {
  const answers = data && typeof data === 'object' && !Array.isArray(data) ? (data as Data) : {};
  const fields = requiredFields(step, answers, audience);
  return { filled: fields.filter((field) => isFilled(field, answers[field])).length, required: fields.length };
}

/** Every required field filled: the customer's rule for moving on. */
function allRequiredFilled(step: FormStep, journey: Journey | null | undefined, audience: Audience): boolean {
  if (step === 'summary') return true;
  const { filled, required } = requiredFilled(step, stepData(journey, step), audience);
  return filled === required;
}

/**
 * The spec, literally: "a step counts as complete when at least one of its required fields is
 * filled". A step whose answers leave nothing required (own solicitor, for the client) is complete
 * once saved. 'summary' is complete when every earlier step of the audience's form is.
 */
export function isStepComplete(step: FormStep, journey: Journey | null | undefined, audience: Audience): boolean {
  if (step === 'summary') {
    const steps: readonly FormStep[] = audience === 'lawyer' ? lawyerSteps : customerSteps;
    return steps.filter((s) => s !== 'summary').every((s) => isStepComplete(s, journey, audience));
  }
  const { filled, required } = requiredFilled(step, stepData(journey, step), audience);
  if (required === 0) return journey?.[step] !== undefined && journey?.[step] !== null;
  return filled >= 1;
}

/**
 * The step to open (spec: "the first step whose required fields are missing"): for the lawyer the
 * first step that is not complete (so never a locked one), for the customer the first step with any
 * required field missing (so always a reachable one). The last step when all are done.
 */
export function firstIncompleteStep(
  steps: readonly FormStep[],
  journey: Journey | null | undefined,
  audience: Audience,
): FormStep {
  const done = (step: FormStep) =>
    audience === 'lawyer' ? isStepComplete(step, journey, audience) : allRequiredFilled(step, journey, audience);
  return steps.find((step) => step !== 'summary' && !done(step)) ?? steps[steps.length - 1] ?? 'summary';
}

/**
 * Lawyer: the first step is never locked; any other is locked until the step before it is complete.
 * Customer: locked while not reachable. A step not in the list is locked.
 */
export function isStepLocked(
  steps: readonly FormStep[],
  step: FormStep,
  journey: Journey | null | undefined,
  audience: Audience,
): boolean {
  const index = steps.indexOf(step);
  if (index < 0) return true;
  if (audience === 'customer') return !isStepReachable(steps, step, journey, audience);
  return index > 0 && !isStepComplete(steps[index - 1]!, journey, audience);
}

/** Customer (spec: "reachable only if earlier required fields are filled"): all of every earlier step's. */
export function isStepReachable(
  steps: readonly FormStep[],
  step: FormStep,
  journey: Journey | null | undefined,
  audience: Audience,
): boolean {
  const index = steps.indexOf(step);
  if (index < 0) return false;
  return steps.slice(0, index).every((earlier) => allRequiredFilled(earlier, journey, audience));
}

/** Form E declared but no documents listed: the wizard sends the user back to the documents step. */
export function needsFormEDocuments(journey: Journey | null | undefined): boolean {
  const asset = stepData(journey, 'asset');
  return asset.submittedFormE === true && !(Array.isArray(asset.documents) && asset.documents.length > 0);
}
