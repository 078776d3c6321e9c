import { drawdownCreditCode, type CreditLimit } from './credit';
import { lawyerDeclarationKeys, type LawyerDeclarationKey } from './declarations';
import { drawdownDateCode, drawdownDateFields } from './drawdown-dates';
import { DATE_TEXT_MAX_LENGTH, INVOICE_NUMBER_MAX_LENGTH } from './limits';
import { MONEY_MAX_POUNDS, toPence } from './money';

/** The drawdown request's checks (spec section 5) on both sides. The form checks what it can before sending, the server again (under the loan's row lock where credit is involved). */

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
