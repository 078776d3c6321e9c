import { fieldLabel, labelledFields, valueLabel } from './labels';
import { assetTypes, optionLabel } from './options';
import type { Audience } from './required';
import { customerStepTitles, lawyerStepTitles, type FormStep, type Journey, type JourneyStep } from './steps';

/**
 * A journey as labelled text: the summary step's rows (and the conflict choice's values) and the
 * application PDF's lines. Both use the forms' question labels and the shared value labels; the
 * PDF, read away from the screen, also spells out the birth date, each address and asset, and
 * names the chosen solicitor and files (looked up by the caller).
 */

type Data = Record<string, unknown>;

/** Names the journey refers to by id, looked up by the caller (the server has them, the screen may not). */
export interface DisplayLookups {
  solicitorNames: ReadonlyMap<number, string>;
  fileNames: ReadonlyMap<number, string>;
}

/** A step's title for who fills the form (the wizard, the summary, the PDF); the client's own confirmation step has only the client's title. */
export function journeyStepTitle(step: FormStep, audience: Audience): string {
  return audience === 'customer' || step === 'client' ? customerStepTitles[step] : lawyerStepTitles[step];
}

function present(value: unknown): boolean {
  return !(value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0));
}

function isRecord(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ── the summary step ──

function entryText(prefix: string, entry: unknown): string {
  if (!isRecord(entry)) return valueLabel(prefix, entry);
  return Object.entries(entry)
    .filter(([key]) => key !== 'type' || prefix !== 'addressHistory')
    .map(([key, value]) => valueLabel(`${prefix}.${key}`, value))
    .filter(Boolean)
    .join(', ');
}

/** One saved answer as the summary step and the conflict choice show it: a list on one line, files counted. */
export function displayValue(step: JourneyStep, field: string, value: unknown): string {
  if (Array.isArray(value)) {
    if (step === 'asset' && field === 'documents') return value.length === 1 ? '1 document' : `${value.length} documents`;
    if (value.some((entry) => entry && typeof entry === 'object'))
      return value.map((entry) => entryText(field, entry)).join('; ');
  }
  return valueLabel(field, value);
}

export interface SummaryRow {
  field: string;
  label: string;
  value: string;
}

/** The answered fields of a step, in question order, then any others the step holds. */
export function summaryRows(step: JourneyStep, data: Data | undefined, audience: Audience): SummaryRow[] {
  if (!data) return [];
  const ordered = labelledFields(step).filter((field) => !field.includes('.') && field in data);
  const rest = Object.keys(data).filter((field) => !ordered.includes(field));
  return [...ordered, ...rest].flatMap((field) => {
    const value = displayValue(step, field, data[field]);
    return value ? [{ field, label: fieldLabel(step, field, audience), value }] : [];
  });
}

export interface SummarySection {
  step: JourneyStep;
  title: string;
  /** Empty when nothing of the step is answered yet. */
  rows: SummaryRow[];
}

/** The summary step's sections: each of the given steps with its title and answered rows. */
export function summarySections(journey: Journey, steps: readonly JourneyStep[], audience: Audience): SummarySection[] {
  return steps.map((step) => ({
    step,
    title: journeyStepTitle(step, audience),
    rows: summaryRows(step, journey[step] as Data | undefined, audience),
  }));
}

// ── the application PDF ──

/** The question label of a field as printed: the three birth-date selectors print as one answer. */
function printedLabel(step: JourneyStep, field: string, audience: Audience): string {
  return fieldLabel(step, field === 'birthDayDay' ? 'birthDate' : field, audience);
}

/** The fields a step prints, in question order: top-level fields, the birth date once. */
export function printedFields(step: JourneyStep): string[] {
  return labelledFields(step).filter((f) => !f.includes('.') && f !== 'birthMonth' && f !== 'birthYear' && f !== 'birthDate');
}

/** One answer as the PDF prints it: Yes/No, £1,234.56, DD/MM/YYYY, option labels; ids as names. */
export function printedValue(field: string, value: unknown, lookups: DisplayLookups): string {
  if (field === 'solicitorId')
    return typeof value === 'number' ? (lookups.solicitorNames.get(value) ?? `Solicitor ${value}`) : '';
  if (field === 'documents' && Array.isArray(value))
    return value.map((id) => lookups.fileNames.get(id as number) ?? `Document ${String(id)} (removed)`).join('\n');
  if (isRecord(value)) return JSON.stringify(value);
  return valueLabel(field, value);
}

/** One address of the journey (an address-history entry or an address step) as one line. */
export function addressText(entry: Data): string {
  const line = (...p: unknown[]) =>
    p
      .filter((x) => typeof x === 'string' && x.trim() !== '')
      .map((x) => String(x).trim())
      .join(' ');
  const parts =
    entry.type === 'manually' || !present(entry.address) ? [line(entry.house, entry.street), entry.city] : [entry.address];
  return [...parts, entry.postcode].filter((p) => typeof p === 'string' && p.trim() !== '').join(', ');
}

export type PrintedLine = { kind: 'subheading'; text: string } | { kind: 'row'; label: string; value: string };

function printedLines(
  step: JourneyStep,
  data: Data,
  fields: readonly string[],
  audience: Audience,
  lookups: DisplayLookups,
): PrintedLine[] {
  const lines: PrintedLine[] = [];
  const row = (label: string, value: string) => lines.push({ kind: 'row', label, value });
  for (const field of fields) {
    if (field === 'birthDayDay') {
      const {
        birthDayDay: d,
        birthMonth: m,
        birthYear: y,
      } = data as { birthDayDay?: number; birthMonth?: number; birthYear?: number };
      if (d || m || y)
        row(
          printedLabel(step, field, audience),
          [d, m, y].map((n, i) => (n ? String(n).padStart(i === 2 ? 4 : 2, '0') : '--')).join('/'),
        );
      continue;
    }
    const value = data[field];
    if (!present(value)) continue;
    if (field === 'addressHistory' && Array.isArray(value)) {
      lines.push({ kind: 'subheading', text: printedLabel(step, field, audience) });
      value.forEach((entry: unknown, i) => {
        const address = isRecord(entry) ? entry : {};
        row(`${printedLabel(step, 'addressHistory.address', audience)} ${i + 1}`, addressText(address));
        if (present(address.date))
          row(printedLabel(step, 'addressHistory.date', audience), valueLabel('addressHistory.date', address.date));
      });
      continue;
    }
    if (field === 'assets' && Array.isArray(value)) {
      lines.push({ kind: 'subheading', text: printedLabel(step, field, audience) });
      value.forEach((entry: unknown, i) => {
        const asset = isRecord(entry) ? entry : {};
        const kind =
          asset.type === 'other' && present(asset.typeoOther) ? String(asset.typeoOther) : optionLabel(assetTypes, asset.type);
        row(`${printedLabel(step, 'assets.type', audience)} (${i + 1})`, kind || '-');
        for (const part of ['valueOfRealisable', 'clientsInterest']) {
          if (present(asset[part])) row(printedLabel(step, `assets.${part}`, audience), valueLabel(part, asset[part]));
        }
      });
      continue;
    }
    row(printedLabel(step, field, audience), printedValue(field, value, lookups));
  }
  return lines;
}

export interface PrintedSection {
  step: JourneyStep;
  title: string;
  /** Whether any of the printed fields is answered; the lines are empty when not. */
  answered: boolean;
  lines: PrintedLine[];
}

/**
 * The PDF's sections: every journey step that prints fields (all of them, or the chosen ones per
 * step), in journey order, with its printed lines.
 */
export function printedSections(
  journey: Partial<Record<JourneyStep, Data>>,
  steps: readonly JourneyStep[],
  audience: Audience,
  lookups: DisplayLookups,
  fieldsOf: (step: JourneyStep) => readonly string[] | undefined = printedFields,
): PrintedSection[] {
  return steps.flatMap((step) => {
    const fields = fieldsOf(step);
    if (!fields) return [];
    const data = journey[step];
    const answered =
      data !== undefined && fields.some((f) => present(data[f]) || (f === 'birthDayDay' && present(data.birthYear)));
    const lines = answered ? printedLines(step, data, fields, audience, lookups) : [];
    return [{ step, title: journeyStepTitle(step, audience), answered, lines }];
  });
}
