import { AppError } from '../../errors/app-error';
import { normalUkDate } from '../../../shared/rules/calendar-dates';
import { drawdownRequestCodes } from '../../../shared/rules/drawdown-request';
import { toPence } from '../../../shared/rules/money';
import { lawyerDeclarationKeys } from '../../../shared/rules/declarations';
import type { components } from '../../../shared/api/schema';

type DrawdownRequest = components['schemas']['DrawdownRequest'];

/**
 * A drawdown request checked by the shared rules (the form ran the same ones): 400 with the codes
 * of every field that fails (the credit is checked later, under the loan's lock). The columns it
 * becomes: text trimmed, dates written DD/MM/YYYY ('1/3/2027' → '01/03/2027', decision 462),
 * material-change details only when there were changes, a statement's details only when it was
 * answered False.
 */
export function checkedRequest(body: DrawdownRequest) {
  const codes = drawdownRequestCodes(body);
  if (Object.keys(codes).length > 0) throw AppError.ruleFailed(codes);
  const declarations: Record<string, boolean | string> = {};
  const given = body.lawyerDeclarations as unknown as Record<string, boolean | string | undefined>;
  for (const key of lawyerDeclarationKeys) {
    declarations[key] = given[key] === true;
    const details = given[`${key}Details`];
    if (given[key] === false && typeof details === 'string' && details.trim()) declarations[`${key}Details`] = details.trim();
  }
  return {
    amountPence: toPence(body.amount)!,
    invoiceNumber: body.invoiceNumber.trim(),
    stageOfCase: body.stageOfCase.trim(),
    materialChanges: body.materialChanges,
    materialChangesDetails: body.materialChanges ? (body.materialChangesDetails?.trim() ?? null) : null,
    nextHearingDate: normalUkDate(body.nextHearingDate),
    finalOrderDate: normalUkDate(body.finalOrderDate),
    reaplyAssets: body.reaplyAssets.trim(),
    expectedRepaymentDate: normalUkDate(body.expectedRepaymentDate),
    clientExpectedRepaymentDate: body.clientExpectedRepaymentDate?.trim() ? normalUkDate(body.clientExpectedRepaymentDate) : null,
    lawyerDeclarations: declarations,
  };
}
