import * as v from 'valibot';
import { EMAIL_PATTERN, fieldCodes, isPhoneNumber } from '../schemas/account';
import { recordIdSchema } from '../rules/record-id';
import {
  ADDRESS_HISTORY_MAX,
  ASSETS_MAX,
  DEPENDANTS_MAX,
  EMAIL_MAX_LENGTH,
  FORM_E_MAX_FILES,
  PERCENT_MAX,
  TEXT_MAX_LENGTH,
  YEARS_MAX,
} from '../rules/limits';
import { MONEY_MAX_POUNDS } from '../rules/money';
import { addressCoverage, addressKey, isoDay, latestMovedInDay, todayDay } from './address';
import {
  addressEntryTypes,
  assetTypes,
  codesOf,
  completionBands,
  disputeLevels,
  employmentStatuses,
  genders,
  isNonEmployed,
  titles,
} from './options';
import {
  addressEntryFields,
  addressFields,
  assetFields,
  caseDetailFields,
  isFilled,
  propertyValueFields,
  requiredFields,
  type Audience,
} from './required';
import type { JourneyData, JourneyStep } from './steps';

/**
 * One step's answers checked by the same rules on the phone and on the server (spec section 5).
 * Two layers: valibot schemas check each value's kind and bounds (field codes as messages); the
 * rule functions below add what depends on other answers (required, dates, repeats). Neither throws.
 */

export type { Audience };

export interface StepContext {
  audience: Audience;
  today: Date;
}
export type StepResult<S extends JourneyStep> =
  { success: true; output: JourneyData[S] } | { success: false; fields: Record<string, string> };

// ── value schemas (messages are error codes) ──
const text = v.pipe(v.string('invalid'), v.maxLength(TEXT_MAX_LENGTH, 'tooLong'));
const bool = v.boolean('invalid');
const wholeNumber = (min: number, max: number) =>
  v.pipe(
    v.number('invalid'),
    v.integer('invalid'),
    v.minValue(min, min === 0 ? 'positive' : 'invalid'),
    v.maxValue(max, 'invalid'),
  );
/** Money: pounds from 0 up to the business's bound on any amount (the contract's maximum too). */
const money = v.pipe(
  v.number('invalid'),
  v.finite('invalid'),
  v.minValue(0, 'positive'),
  v.maxValue(MONEY_MAX_POUNDS, 'amountTooLarge'),
);
const percent = v.pipe(v.number('invalid'), v.finite('invalid'), v.minValue(0, 'percent'), v.maxValue(PERCENT_MAX, 'percent'));
const years = v.pipe(v.number('invalid'), v.finite('invalid'), v.minValue(0, 'positive'), v.maxValue(YEARS_MAX, 'invalid'));
const isoDate = v.pipe(
  v.string('date'),
  v.check((s) => isoDay(s) !== null, 'date'),
);
const email = v.pipe(v.string('invalid'), v.trim(), v.maxLength(EMAIL_MAX_LENGTH, 'email'), v.regex(EMAIL_PATTERN, 'email'));
/** UK and international numbers (schemas/account.ts: one rule for every phone field). */
const phone = v.pipe(
  v.string('invalid'),
  v.maxLength(TEXT_MAX_LENGTH, 'tooLong'),
  v.check((s) => isPhoneNumber(s.trim()), 'phone'),
);
const pick = <T extends readonly string[]>(values: T) => v.picklist(values, 'invalid');
const addressType = pick(codesOf(addressEntryTypes));
const opt = v.optional;

const addressEntry = v.object(
  {
    type: opt(addressType),
    address: opt(text),
    postcode: opt(text),
    house: opt(text),
    street: opt(text),
    city: opt(text),
    date: opt(isoDate),
  },
  'invalid',
);
const asset = v.object(
  {
    type: opt(pick(codesOf(assetTypes))),
    typeoOther: opt(text),
    valueOfRealisable: opt(money),
    clientsInterest: opt(percent),
  },
  'invalid',
);

const schemas = {
  personal: v.object({
    firstName: opt(text),
    lastName: opt(text),
    preferedName: opt(text),
    email: opt(email),
    birthDayDay: opt(wholeNumber(1, 31)),
    birthMonth: opt(wholeNumber(1, 12)),
    birthYear: opt(wholeNumber(1900, 2100)),
    metClient: opt(bool),
    title: opt(pick(codesOf(titles))),
    gender: opt(pick(codesOf(genders))),
    nationality: opt(text),
    contactNumber: opt(phone),
    dependants: opt(bool),
    dependantsUnder18: opt(wholeNumber(0, DEPENDANTS_MAX)),
    dependantsOther: opt(wholeNumber(0, DEPENDANTS_MAX)),
    addressHistory: opt(v.pipe(v.array(addressEntry, 'invalid'), v.maxLength(ADDRESS_HISTORY_MAX, 'invalid'))),
    status: opt(pick(codesOf(employmentStatuses))),
    occupation: opt(text),
    employer: opt(text),
    yearsWithEmployer: opt(years),
  }),
  client: v.object({ clientAgree: opt(bool) }),
  case: v.object({
    caseRef: opt(text),
    associatedCaseReferences: opt(text),
    timeEstimation: opt(text),
    stageOfProceedings: opt(text),
    disputeLevel: opt(pick(codesOf(disputeLevels))),
    yearsMarried: opt(years),
    settlementPrinciples: opt(text),
    preNuptualAgreement: opt(bool),
    preNuptialDetails: opt(text),
    completion: opt(pick(codesOf(completionBands))),
    feeEstimate: opt(money),
    feeEstimateToReach: opt(money),
    relevantProceedings: opt(bool),
    relevantProceedingsDetails: opt(text),
    jurisDisputes: opt(bool),
    jurisDisputesDetails: opt(text),
    maintenancePaid: opt(bool),
    thirdPartyInvolvement: opt(bool),
    settlementOffer: opt(bool),
    clientReactionDetails: opt(text),
    outstandingFees: opt(money),
    clientSuffered: opt(bool),
    clientSufferedDetails: opt(text),
    dateToKnowMore: opt(isoDate),
  }),
  financial: v.object({
    estimationOfSettlementAmount: opt(money),
    monthlyIncome: opt(money),
    monthlyExpenditure: opt(money),
    nonEssMonthlyExpenditure: opt(money),
    intendedHousingArrangements: opt(text),
  }),
  asset: v.object({
    submittedFormE: opt(bool),
    documents: opt(v.pipe(v.array(recordIdSchema, 'invalid'), v.maxLength(FORM_E_MAX_FILES, 'tooManyFiles'))),
    additionalProperty: opt(bool),
    addressType: opt(addressType),
    address: opt(text),
    house: opt(text),
    street: opt(text),
    city: opt(text),
    postcode: opt(text),
    estimatedValue: opt(money),
    totalSum: opt(money),
    clientInterest: opt(percent),
    includeOtherAssets: opt(bool),
    assets: opt(v.pipe(v.array(asset, 'invalid'), v.maxLength(ASSETS_MAX, 'invalid'))),
    additionalInformation: opt(text),
    assetValue: opt(money),
    routeToRepayment: opt(text),
  }),
  independent: v.object({
    // null is the contract's "no solicitor chosen"; it counts as missing.
    solicitorId: opt(v.nullable(recordIdSchema)),
    useOwnSolicitor: opt(bool),
    consent: opt(bool),
    authorised: opt(bool),
  }),
} satisfies Record<JourneyStep, v.GenericSchema>;

type Data = Record<string, unknown>;
type Codes = Record<string, string>;

function isRecord(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Blank text and null mean "not answered" (spec: empty strings count as missing), so they are
 * dropped before checking and never stored. solicitorId keeps null: the contract's "none chosen".
 */
function withoutBlanks(data: Data): Data {
  const out: Data = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || (value === null && key !== 'solicitorId')) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    out[key] = Array.isArray(value) ? value.map((item) => (isRecord(item) ? withoutBlanks(item) : item)) : value;
  }
  return out;
}

/** Sets a code unless the path already has one: the first problem of a field is the one shown. */
function add(codes: Codes, path: string, code: string): void {
  if (!(path in codes)) codes[path] = code;
}

function requireAll(codes: Codes, prefix: string, data: Data, fields: readonly string[]): void {
  for (const field of fields) if (!isFilled(field, data[field])) add(codes, prefix + field, 'required');
}

/** Entries are listed latest first: index 0 is the current address, each next one is older. */
function addressHistoryRules(codes: Codes, history: unknown, today: Date): void {
  if (!Array.isArray(history)) return;
  const seen = new Set<string>();
  const now = todayDay(today);
  let allDated = true;
  history.forEach((entry, i) => {
    if (!isRecord(entry)) {
      allDated = false; // the schema reports it as 'invalid'
      return;
    }
    const prefix = `addressHistory.${i}.`;
    requireAll(codes, prefix, entry, addressEntryFields(entry.type));
    const day = isoDay(entry.date);
    if (day === null) allDated = false;
    else if (day > now) add(codes, prefix + 'date', 'futureDate');
    // An older address cannot have been moved into after the newer one listed before it.
    else if (day > latestMovedInDay(history as { date?: unknown }[], i, today)) add(codes, prefix + 'date', 'dateOrder');
    const key = addressKey(entry);
    if (key && seen.has(key)) add(codes, prefix + (entry.type === 'manually' ? 'house' : 'address'), 'addressUsed');
    if (key) seen.add(key);
  });
  // Coverage is judged once every entry has a readable date; until then the entries' own codes show.
  if (history.length > 0 && allDated && !addressCoverage(history, today).covered)
    add(codes, 'addressHistory', 'addressTooRecent');
}

function birthDateRule(codes: Codes, data: Data): void {
  const { birthDayDay: d, birthMonth: m, birthYear: y } = data;
  if (typeof d !== 'number' || typeof m !== 'number' || typeof y !== 'number') return;
  // Out-of-range parts are the schema's to report; here only a day the month does not have.
  if (![d, m, y].every(Number.isInteger) || d < 1 || d > 31 || m < 1 || m > 12 || y < 1900 || y > 2100) return;
  const iso = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  if (isoDay(iso) === null) add(codes, 'birthDayDay', 'date'); // 31 February
}

/** The rules that depend on other answers; data is the raw input, so every value is type-checked. */
function crossFieldRules(step: JourneyStep, data: Data, context: StepContext): Codes {
  const codes: Codes = {};
  requireAll(codes, '', data, requiredFields(step, data, context.audience));
  if (step === 'personal') {
    birthDateRule(codes, data);
    addressHistoryRules(codes, data.addressHistory, context.today);
  }
  if (step === 'asset' && data.submittedFormE === false && data.includeOtherAssets === true && Array.isArray(data.assets)) {
    data.assets.forEach((item, i) => {
      if (isRecord(item)) requireAll(codes, `assets.${i}.`, item, assetFields(item.type));
    });
  }
  return codes;
}

/**
 * Answers hidden by other answers are cleared (spec section 4: a non-employed status clears its
 * fields). Done before checking, so a hidden answer can neither block a save nor be stored.
 */
function withoutHidden(step: JourneyStep, data: Data): Data {
  const out = { ...data };
  const drop = (...keys: string[]) => keys.forEach((key) => delete out[key]);
  const keepAddress = (entry: Data, type: unknown, all: readonly string[]) => {
    const kept = addressFields(type);
    for (const key of all) if (!kept.includes(key)) delete entry[key];
  };
  const addressParts = ['address', 'postcode', 'house', 'street', 'city'] as const;
  switch (step) {
    case 'personal':
      if (isNonEmployed(out.status)) drop('occupation', 'employer', 'yearsWithEmployer');
      if (out.dependants === false) drop('dependantsUnder18', 'dependantsOther');
      if (Array.isArray(out.addressHistory))
        out.addressHistory = out.addressHistory.map((entry: unknown) => {
          if (!isRecord(entry)) return entry;
          const copy = { ...entry };
          if (copy.type !== undefined) keepAddress(copy, copy.type, addressParts);
          return copy;
        });
      break;
    case 'case':
      for (const [question, details] of caseDetailFields) if (out[question] === false) drop(details);
      break;
    case 'asset':
      // Form E Yes: the property and asset questions are hidden, so their answers go too; No: the uploads list goes.
      if (out.submittedFormE === true)
        drop('additionalProperty', 'addressType', ...addressParts, ...propertyValueFields, 'includeOtherAssets', 'assets');
      if (out.submittedFormE === false) drop('documents');
      if (out.additionalProperty === false) drop('addressType', ...addressParts, ...propertyValueFields);
      else if (out.addressType !== undefined) keepAddress(out, out.addressType, addressParts);
      if (out.includeOtherAssets === false) drop('assets');
      if (Array.isArray(out.assets))
        out.assets = out.assets.map((item: unknown) => {
          if (!isRecord(item)) return item;
          const copy = { ...item };
          if (copy.type !== undefined && copy.type !== 'other') delete copy.typeoOther;
          return copy;
        });
      break;
    case 'independent':
      if (out.useOwnSolicitor === true) drop('solicitorId');
      break;
  }
  return out;
}

/**
 * Checks one step's answers. Never throws: any input (null, a string, wrong types, extra keys)
 * gives either the cleaned answers or a map of dotted paths ('addressHistory.1.date') to codes.
 * Unknown keys are dropped; null and undefined count as an empty step.
 */
export function validateStep<S extends JourneyStep>(step: S, data: unknown, context: StepContext): StepResult<S> {
  try {
    if (data === null || data === undefined) data = {};
    if (!isRecord(data)) return { success: false, fields: { _: 'invalid' } };
    const input = withoutHidden(step, withoutBlanks(data));
    const parsed = v.safeParse(schemas[step] as v.GenericSchema, input);
    // A value of the wrong kind or size says so rather than 'required'.
    const codes = { ...crossFieldRules(step, input, context), ...(parsed.success ? {} : fieldCodes(parsed.issues)) };
    if (!parsed.success || Object.keys(codes).length > 0) return { success: false, fields: codes };
    return { success: true, output: parsed.output as JourneyData[S] };
  } catch {
    // Defensive only: a getter or proxy in hostile input must not crash the server.
    return { success: false, fields: { _: 'invalid' } };
  }
}
