import type { JourneyStep } from '../../../../../shared/journey/steps';
import { assetStep } from './asset-step';
import { caseStep } from './case-step';
import { clientStep } from './client-step';
import { financialStep } from './financial-step';
import { independentStep } from './independent-step';
import { personalStep } from './personal-step';
import type { StepDefinition } from './step-definition';

/**
 * Every journey step's form and conversions, by step key: the wizard (lawyer and client) looks a
 * step up here. The values type differs per step, so it is `any` at this one seam; each definition
 * is fully typed in its own file.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one seam where the step's values type is erased
export const stepDefinitions: { [S in JourneyStep]: StepDefinition<S, any> } = {
  personal: personalStep,
  client: clientStep,
  case: caseStep,
  financial: financialStep,
  asset: assetStep,
  independent: independentStep,
};
