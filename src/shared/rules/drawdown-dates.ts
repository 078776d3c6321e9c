import { todayDay, ukDateParts, ukDay } from './calendar-dates';

/**
 * The drawdown request's dates (docs/decisions.md (462), which reverses 011's free text): the next
 * hearing, the final order and the expected repayment, and the client's expected repayment when it
 * is given. Each is a real date written DD/MM/YYYY, as the form's hint shows and every date in the
 * portal is written; none may be before today (the UK's day): each is a date still to come when
 * the request is made. The form checks them as they are typed and the server again as it takes the
 * request, with the same codes. Stored requests made before keep their free text: it is shown as
 * it is and never checked again.
 */
export const drawdownDateFields = ['nextHearingDate', 'finalOrderDate', 'expectedRepaymentDate'] as const;
export type DrawdownDateField = (typeof drawdownDateFields)[number];

/** The hint under each date field: the writing and the rule, no example that would age into the past. */
export const DRAWDOWN_DATE_HINT = 'DD/MM/YYYY, today or later';

/** 'dateFormat': not written DD/MM/YYYY; 'noSuchDate': 31/02/2027; 'pastDate': before today. */
export type DrawdownDateCode = 'required' | 'dateFormat' | 'noSuchDate' | 'pastDate';

export function drawdownDateCode(text: string | null | undefined, today: Date = new Date()): DrawdownDateCode | undefined {
  if (typeof text !== 'string' || text.trim() === '') return 'required';
  if (!ukDateParts(text)) return 'dateFormat';
  const day = ukDay(text);
  if (day === null) return 'noSuchDate';
  if (day < todayDay(today)) return 'pastDate';
  return undefined;
}
