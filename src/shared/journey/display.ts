import { fieldLabel, labelledFields, valueLabel } from './labels';
import { addressLines } from './address';
import { assetTypes, optionLabel } from './options';
import type { Audience } from './required';
import { customerStepTitles, lawyerStepTitles, type FormStep, type Journey, type JourneyStep } from './steps';

/**
 * The journey as labelled text, one rendering for every reader: the summary step, the staff review
 * screen and the application PDF (decision 333). Question labels and value labels as the forms word
 * them; the birth date as one DD/MM/YYYY answer; each address as lines with its postcode printed
 * normalised; each asset on its own; the chosen solicitor and the Form E files by name, from the
 * lookups the caller has (the screen's lists, the server's query). A file the lookups do not know is
 * not live (deleted): it is left out, so the summary and the PDF list what is really there.
 */

type Data = Record<string, unknown>;

/** Names the journey refers to by id, looked up by the caller (the server has them, the screen may not). */
export interface DisplayLookups {
  solicitorNames: ReadonlyMap<number, string>;
  /** The live files by id (and, on the device, files still waiting to upload by their local id). */
  fileNames: ReadonlyMap<number | string, string>;
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

// ── one answer ──

/** Fields that print inside another's row: the birth date's month and year, the property address's parts. */
const foldedFields = new Set(['birthMonth', 'birthYear', 'birthDate']);
const propertyAddressParts = new Set(['addressType', 'house', 'street', 'city', 'postcode']);

function folded(step: JourneyStep, field: string): boolean {
  if (step === 'personal') return foldedFields.has(field);
  if (step === 'asset') return propertyAddressParts.has(field);
  return false;
}

/** DD/MM/YYYY from the three birth-date selectors; '--' for a part not chosen. */
function birthDateText(data: Data): string {
  const parts = [data.birthDayDay, data.birthMonth, data.birthYear];
  if (!parts.some((part) => present(part))) return '';
  return parts.map((n, i) => (typeof n === 'number' && n > 0 ? String(n).padStart(i === 2 ? 4 : 2, '0') : '--')).join('/');
}

/** One address (an address-history entry, an address step, a solicitor's) on one line: its lines joined. */
export function addressText(entry: Data): string {
  return addressLines(entry).join(', ');
}

/** The moved-in month and year ('March 2023'). */
function movedInText(entry: Data): string {
  return present(entry.date) ? valueLabel('addressHistory.date', entry.date) : '';
}

function solicitorName(value: unknown, lookups: DisplayLookups | undefined): string {
  if (typeof value !== 'number') return '';
  // Without the list (offline, never loaded) the choice is said, never its id.
  return lookups?.solicitorNames.get(value) ?? 'A solicitor from the list';
}

/** The live files by name; without lookups, how many there are. */
function documentsText(value: unknown, lookups: DisplayLookups | undefined): string {
  const refs = Array.isArray(value) ? value : [];
  if (!lookups) return refs.length === 1 ? '1 document' : `${refs.length} documents`;
  const names = refs.flatMap((ref) => {
    const name = lookups.fileNames.get(ref as number | string);
    return name === undefined ? [] : [name];
  });
  return names.length > 0 ? names.join('\n') : 'None';
}

function assetText(step: JourneyStep, entry: Data, audience: Audience): string {
  const kind =
    entry.type === 'other' && present(entry.typeoOther) ? String(entry.typeoOther) : optionLabel(assetTypes, entry.type);
  const lines = [kind || '-'];
  for (const part of ['valueOfRealisable', 'clientsInterest']) {
    if (present(entry[part])) lines.push(`${fieldLabel(step, `assets.${part}`, audience)}: ${valueLabel(part, entry[part])}`);
  }
  return lines.join('\n');
}

/** The label of an address of the history, as the form heads it. */
function addressHeading(index: number): string {
  return index === 0 ? 'Current address' : `Previous address ${index}`;
}

export interface SummaryRow {
  field: string;
  label: string;
  /** The answer; several lines (an address, a list of files) are separated by '\n'. */
  value: string;
}

/**
 * One field's rows: usually one; a list (addresses, assets) one per entry. Empty when unanswered or
 * when the field prints inside another's row.
 */
function fieldRows(step: JourneyStep, field: string, data: Data, audience: Audience, lookups?: DisplayLookups): SummaryRow[] {
  if (folded(step, field)) return [];
  const value = data[field];
  const row = (label: string, text: string, key = field): SummaryRow[] => (text ? [{ field: key, label, value: text }] : []);
  if (step === 'personal' && field === 'birthDayDay') return row(fieldLabel(step, 'birthDate', audience), birthDateText(data));
  if (step === 'asset' && field === 'address') {
    if (data.additionalProperty === false) return [];
    const lines = addressLines({ ...data, type: data.addressType });
    return row(fieldLabel(step, 'address', audience), lines.join('\n'));
  }
  if (!present(value))
    return step === 'asset' && field === 'documents' && data.submittedFormE === true && lookups
      ? row(fieldLabel(step, field, audience), 'None')
      : [];
  if (field === 'addressHistory' && Array.isArray(value)) {
    return value.flatMap((entry: unknown, index) => {
      const address = isRecord(entry) ? entry : {};
      const moved = movedInText(address);
      const lines = [...addressLines(address), ...(moved ? [`Moved in ${moved}`] : [])];
      return row(addressHeading(index), lines.join('\n'), `addressHistory.${index}`);
    });
  }
  if (field === 'assets' && Array.isArray(value)) {
    return value.flatMap((entry: unknown, index) =>
      row(`Asset ${index + 1}`, assetText(step, isRecord(entry) ? entry : {}, audience), `assets.${index}`),
    );
  }
  if (field === 'solicitorId') return row(fieldLabel(step, field, audience), solicitorName(value, lookups));
  if (step === 'asset' && field === 'documents') return row(fieldLabel(step, field, audience), documentsText(value, lookups));
  if (isRecord(value) || (Array.isArray(value) && value.some(isRecord))) return [];
  return row(fieldLabel(step, field, audience), valueLabel(field, value));
}

/** One saved answer as one line of text (the conflict choice): lists joined, files counted, never an id. */
export function displayValue(step: JourneyStep, field: string, value: unknown): string {
  if (step === 'asset' && field === 'documents') return documentsText(value, undefined);
  if (field === 'solicitorId') return solicitorName(value, undefined);
  if (field === 'addressHistory' && Array.isArray(value))
    return value.map((entry) => (isRecord(entry) ? addressLines(entry).join(', ') : '')).join('; ');
  if (field === 'assets' && Array.isArray(value))
    return value.map((entry) => (isRecord(entry) ? assetText(step, entry, 'lawyer').replace(/\n/g, ', ') : '')).join('; ');
  return valueLabel(field, value);
}

// ── a step ──

/** The fields a step prints, in question order: its top-level questions. */
export function printedFields(step: JourneyStep): string[] {
  return labelledFields(step).filter((field) => !field.includes('.'));
}

/**
 * The rows of a step: the given fields (by default every question, then any other field the step
 * holds) in question order.
 */
export function summaryRows(
  step: JourneyStep,
  data: Data | undefined,
  audience: Audience,
  lookups?: DisplayLookups,
  fields?: readonly string[],
): SummaryRow[] {
  if (!data) return [];
  const ordered = fields ?? [
    ...printedFields(step),
    ...Object.keys(data).filter((field) => !labelledFields(step).includes(field)),
  ];
  return ordered.flatMap((field) => fieldRows(step, field, data, audience, lookups));
}

export interface SummarySection {
  step: JourneyStep;
  title: string;
  /** Empty when nothing of the step is answered yet. */
  rows: SummaryRow[];
}

/**
 * The summary's sections: each of the given steps with its title and answered rows. Without lookups
 * the solicitor is not named and files are counted; pass them wherever the names are known.
 */
export function summarySections(
  journey: Journey,
  steps: readonly JourneyStep[],
  audience: Audience,
  lookups?: DisplayLookups,
): SummarySection[] {
  return steps.map((step) => ({
    step,
    title: journeyStepTitle(step, audience),
    rows: summaryRows(step, journey[step] as Data | undefined, audience, lookups),
  }));
}

// ── the application PDF: the same rows ──

/** One answer as the PDF prints it: Yes/No, £1,234.56, DD/MM/YYYY, option labels; ids as names. */
export function printedValue(field: string, value: unknown, lookups: DisplayLookups): string {
  if (field === 'solicitorId') return solicitorName(value, lookups);
  if (field === 'documents') return documentsText(value, lookups);
  if (isRecord(value)) return '';
  return valueLabel(field, value);
}

export type PrintedLine = { kind: 'subheading'; text: string } | { kind: 'row'; label: string; value: string };

export interface PrintedSection {
  step: JourneyStep;
  title: string;
  /** Whether any of the printed fields is answered; the lines are empty when not. */
  answered: boolean;
  lines: PrintedLine[];
}

/**
 * The PDF's sections: every given step that prints fields (all of them, or the chosen ones per
 * step), in journey order, with the summary's rows.
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
    const rows = summaryRows(step, journey[step], audience, lookups, fields);
    const lines = rows.map(({ label, value }): PrintedLine => ({ kind: 'row', label, value }));
    return [{ step, title: journeyStepTitle(step, audience), answered: lines.length > 0, lines }];
  });
}
