import { fieldLabel, labelledFields } from '../../shared/journey/labels';
import type { JourneyStep } from '../../shared/journey/steps';

/** The question label of a field as the forms word it for this audience (shared labels module). */
export function fieldText(step: JourneyStep, field: string, audience: 'lawyer' | 'customer'): string {
  // The three birth-date selectors print as one answer.
  if (field === 'birthDayDay') return fieldLabel(step, 'birthDate', audience);
  return fieldLabel(step, field, audience);
}

/** The fields a step prints, in question order: top-level fields, the birth date once. */
export function printedFields(step: JourneyStep): string[] {
  return labelledFields(step).filter((f) => !f.includes('.') && f !== 'birthMonth' && f !== 'birthYear' && f !== 'birthDate');
}
