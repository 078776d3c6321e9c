import { AppError } from '../../errors/app-error';
import type { Audience } from '../../../shared/journey/audience';
import type { JourneyData, JourneyStep } from '../../../shared/journey/steps';
import { validateStep } from '../../../shared/journey/validate';

/** Runs the shared step rules (the same the forms run) on the server; 400 with field codes. */
export function validatedStep<S extends JourneyStep>(step: S, data: unknown, audience: Audience): JourneyData[S] {
  const result = validateStep(step, data, { audience, today: new Date() });
  if (!result.success) throw AppError.ruleFailed(result.fields);
  return result.output;
}
