import { drawdownCreditCode, type CreditLimit } from './credit';
import { drawdownDateCode, drawdownDateFields } from './drawdown-dates';
import { lawyerDeclarationKeys, type LawyerDeclarationKey } from './loan-labels';
import { DATE_TEXT_MAX_LENGTH, INVOICE_NUMBER_MAX_LENGTH } from './limits';

/**
 * Money: pounds with pence on the wire and on screen (a JSON number, £1,234.56), integer pence in
 * the database and in every sum, so that 0.1 + 0.2 is never 0.30000000000000004. Both sides use
 * these rules: the form checks what it can before sending, the server checks again (under the
 * loan's row lock where credit is involved).
 */

/** Our own bound on any amount: £1,000,000,000 (well inside the integers a number holds exactly). */
export const MONEY_MAX_PENCE = 100_000_000_000;
/** The same bound in pounds, as the wire carries amounts (openapi `maximum` of every amount a request carries). */
export const MONEY_MAX_POUNDS = MONEY_MAX_PENCE / 100;

/**
 * Pounds (a number, or a decimal string as typed) to integer pence, exactly: the shortest decimal
 * that reads back as the number ('2500.1', '0.30000000000000004') is read digit by digit, never
 * multiplied as a float. Undefined for anything that is not a finite amount with at most two
 * decimals (or is beyond MONEY_MAX_PENCE either way).
 */
export function toPence(pounds: number | string): number | undefined {
  if (typeof pounds === 'number' && !Number.isFinite(pounds)) return undefined;
  const text = typeof pounds === 'number' ? String(pounds) : pounds.trim();
  const match = /^(-?)(\d+)(?:\.(\d{0,2}))?$/.exec(text) ?? /^(-?)()\.(\d{1,2})$/.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const pence = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(pence) || pence > MONEY_MAX_PENCE) return undefined;
  return sign && pence !== 0 ? -pence : pence;
}

/** Integer pence to pounds for the wire (2500.1 for 250010): one division, no sums in floating point. */
export function toPounds(pence: number): number {
  return pence / 100;
}

/**
 * Pence of a figure the server sent (always whole pence divided by 100, so rounding recovers them
 * exactly); for what a person typed, use toPence, which refuses a third decimal instead.
 */
export function wirePence(pounds: number): number {
  return Math.round(pounds * 100);
}

/** One figure the server sent less another, in pounds, subtracted in pence (credit left, drawdowns pending). */
export function poundsLess(from: number, less: number): number {
  return toPounds(wirePence(from) - wirePence(less));
}

/** Digits of the loan reference (spec: LFAMA and the number padded to 5 digits). */
const LOAN_REFERENCE_DIGITS = 5;

export function loanReference(id: number): string {
  return `LFAMA${String(id).padStart(LOAN_REFERENCE_DIGITS, '0')}`;
}

/** A search for 'LFAMA00012' (any case, any padding) is a search for loan 12. */
export function loanIdOfReference(text: string): number | undefined {
  const match = /^lfama0*(\d{1,9})$/i.exec(text.trim());
  return match ? Number(match[1]) : undefined;
}

export type AmountCode =
  'required' | 'positive' | 'greaterThanZero' | 'pence' | 'amountTooLarge' | 'exceedsCredit' | 'exceedsSignedCredit';

/**
 * The drawdown amount's checks (spec section 5), in the spec's order: missing, below 0 ('The number
 * must be positive'), exactly 0 ('The number must be greater than 0'), more than two decimals or
 * beyond our bound, above the credit available ('The drawdown amount can't exceed available
 * credit'), or above the signed credit while a variation waits for the client's signature
 * (credit.ts). Without a credit limit (not known yet) that last check waits for the server.
 */
export function drawdownAmountCode(pounds: number | string | undefined | null, credit?: CreditLimit): AmountCode | undefined {
  if (pounds === undefined || pounds === null || (typeof pounds === 'string' && pounds.trim() === '')) return 'required';
  const value = typeof pounds === 'number' ? pounds : Number(pounds.trim());
  if (Number.isNaN(value)) return 'required';
  if (value < 0) return 'positive';
  if (value === 0) return 'greaterThanZero';
  if (value > MONEY_MAX_POUNDS) return 'amountTooLarge';
  const pence = toPence(pounds);
  if (pence === undefined) return 'pence';
  return credit === undefined ? undefined : drawdownCreditCode(pence, credit);
}

/**
 * The loan amount's checks when staff change it (spec section 5): a number above 0 with at most
 * two decimals, and never below what has been drawn ('Is less than already drawdowned amount').
 */
export function loanAmountCode(pounds: number | string | undefined | null, drawnPence: number): string | undefined {
  const code = drawdownAmountCode(pounds);
  if (code) return code;
  return toPence(pounds!)! < drawnPence ? 'belowDrawdowns' : undefined;
}

/** The drawdown request's fields as the checks read them: the wire's, with answers possibly not given yet. */
export interface DrawdownRequestFields {
  amount: number | string | undefined | null;
  invoiceNumber: string;
  stageOfCase: string;
  materialChanges: boolean | null | undefined;
  materialChangesDetails?: string | null;
  nextHearingDate: string;
  finalOrderDate: string;
  reaplyAssets: string;
  expectedRepaymentDate: string;
  /** The client's expected repayment date: optional, a date like the others when given. */
  clientExpectedRepaymentDate?: string | null;
  lawyerDeclarations: Partial<Record<LawyerDeclarationKey, boolean | null | string>>;
}

/** The request's free-text fields (its dates are dates: drawdown-dates.ts). */
export const drawdownRequestTextFields = ['invoiceNumber', 'stageOfCase', 'reaplyAssets'] as const;

/**
 * The request's short texts and their lengths (openapi maxLength; docs/decisions.md 552): the
 * invoice number is a reference and a date is ten characters, so either far longer is refused;
 * the prose fields keep the spec's default for text (TEXT_MAX_LENGTH).
 */
export const drawdownFieldMaxLength = {
  invoiceNumber: INVOICE_NUMBER_MAX_LENGTH,
  nextHearingDate: DATE_TEXT_MAX_LENGTH,
  finalOrderDate: DATE_TEXT_MAX_LENGTH,
  expectedRepaymentDate: DATE_TEXT_MAX_LENGTH,
  clientExpectedRepaymentDate: DATE_TEXT_MAX_LENGTH,
} as const;

/**
 * Field path → code for a drawdown request (spec section 5): the amount (against the credit limit
 * when given, in pence), every text field, the dates (real dates, not before `today`), material
 * changes with their details when there were some, and all seven statements
 * (`lawyerDeclarations.<key>`). Empty when it may be sent.
 */
export function drawdownRequestCodes(
  request: DrawdownRequestFields,
  credit?: CreditLimit,
  today: Date = new Date(),
): Record<string, string> {
  const codes: Record<string, string> = {};
  const amount = drawdownAmountCode(request.amount, credit);
  if (amount) codes.amount = amount;
  for (const field of drawdownRequestTextFields) if (!request[field].trim()) codes[field] = 'required';
  for (const field of drawdownDateFields) {
    const code = drawdownDateCode(request[field], today);
    if (code) codes[field] = code;
  }
  if (request.clientExpectedRepaymentDate?.trim()) {
    const code = drawdownDateCode(request.clientExpectedRepaymentDate, today);
    if (code) codes.clientExpectedRepaymentDate = code;
  }
  for (const [field, max] of Object.entries(drawdownFieldMaxLength))
    if ((request[field as keyof typeof drawdownFieldMaxLength]?.length ?? 0) > max) codes[field] = 'tooLong';
  if (typeof request.materialChanges !== 'boolean') codes.materialChanges = 'required';
  else if (request.materialChanges && !request.materialChangesDetails?.trim()) codes.materialChangesDetails = 'required';
  for (const key of lawyerDeclarationKeys)
    if (typeof request.lawyerDeclarations[key] !== 'boolean') codes[`lawyerDeclarations.${key}`] = 'required';
  return codes;
}
