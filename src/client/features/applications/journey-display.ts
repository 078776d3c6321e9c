import { fieldLabel, labelledFields, valueLabel } from '../../../shared/journey/labels';
import type { JourneyStep } from '../../../shared/journey/steps';
import type { Audience } from './steps/step-definition';

/** Saved answers as text, for the summary step and the conflict choice. */

function entryText(prefix: string, entry: unknown): string {
  if (!entry || typeof entry !== 'object') return valueLabel(prefix, entry);
  return Object.entries(entry as Record<string, unknown>)
    .filter(([key]) => key !== 'type' || prefix !== 'addressHistory')
    .map(([key, value]) => valueLabel(`${prefix}.${key}`, value))
    .filter(Boolean)
    .join(', ');
}

export function displayValue(step: JourneyStep, field: string, value: unknown): string {
  if (Array.isArray(value)) {
    if (step === 'asset' && field === 'documents') return value.length === 1 ? '1 document' : `${value.length} documents`;
    if (value.some((entry) => entry && typeof entry === 'object')) return value.map((entry) => entryText(field, entry)).join('; ');
  }
  return valueLabel(field, value);
}

export interface SummaryRow {
  field: string;
  label: string;
  value: string;
}

/** The answered fields of a step, in question order, then any others the step holds. */
export function summaryRows(step: JourneyStep, data: Record<string, unknown> | undefined, audience: Audience): SummaryRow[] {
  if (!data) return [];
  const ordered = labelledFields(step).filter((field) => !field.includes('.') && field in data);
  const rest = Object.keys(data).filter((field) => !ordered.includes(field));
  return [...ordered, ...rest].flatMap((field) => {
    const value = displayValue(step, field, data[field]);
    return value ? [{ field, label: fieldLabel(step, field, audience), value }] : [];
  });
}
