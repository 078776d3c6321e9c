import { formatMoney } from '../../../../shared/rules/formats';
import { loanReference } from '../../../../shared/rules/loan-reference';
import { paths } from '../../../routing/paths';
import { registerDraftPlace, registerWritePlace, useRefusals } from '../../../offline/attention';
import { parseDraftKey } from '../../../offline/draft-keys';
import { REQUEST_DRAFT_KIND } from './request-drawdown-mutation';
import { EDIT_DRAFT_KIND } from './update-drawdown-mutation';

/**
 * Where a loan's drafts and writes are seen and fixed, for the list of what waits on the device
 * (offline/attention.ts, decision 342): on the loan's page, and a change of a requested drawdown on
 * that drawdown's edit page. A waiting write is also listed on the other pages it will change
 * (decision 404): a request on the loans and drawdowns lists, a status change on the loans list, a
 * change of a request on that drawdown's page and the drawdowns list.
 */

/** 'Loan LFAMA00012: …': the reference the loan's page and the lists show. */
const loanPlace = (loanId: unknown, what: string, pages: readonly string[] = []) => {
  if (loanId === undefined || loanId === '') return null;
  const id = Number(loanId);
  const name = Number.isInteger(id) && id > 0 ? loanReference(id) : String(loanId);
  return { label: `Loan ${name}: ${what}`, href: paths.loan.url({ id: String(loanId) }), pages };
};

/** 'drawdown request for £1,234.56': the amount as the lawyer typed it, when it is there. */
function requestWhat(amount: unknown): string {
  return typeof amount === 'number' && Number.isFinite(amount)
    ? `drawdown request for ${formatMoney(amount)}`
    : 'drawdown request';
}

registerDraftPlace(REQUEST_DRAFT_KIND, ([loanId]) => loanPlace(loanId, 'drawdown request'));
registerDraftPlace('loan-state', ([loanId]) => loanPlace(loanId, 'status change'));

const editPlace = (drawdownId: unknown) =>
  drawdownId === undefined || drawdownId === ''
    ? null
    : {
        label: `Drawdown ${String(drawdownId)}: changes to the request`,
        href: paths.drawdownEdit.url({ id: String(drawdownId) }),
        pages: [paths.drawdown.url({ id: String(drawdownId) }), paths.drawdowns.url()],
      };

registerDraftPlace(EDIT_DRAFT_KIND, ([drawdownId]) => editPlace(drawdownId));
registerWritePlace<{ drawdownId: number }>('updateDrawdown', ({ drawdownId }) => editPlace(drawdownId));
registerWritePlace<{ loanId: number; request?: { amount?: unknown } }>('requestDrawdown', ({ loanId, request }) =>
  loanPlace(loanId, requestWhat(request?.amount), [paths.loans.url(), paths.drawdowns.url()]),
);
registerWritePlace<{ loanId: number; state: string }>('changeLoanState', ({ loanId }) =>
  loanPlace(loanId, 'status change', [paths.loans.url()]),
);

/** Loans with a request or a status change refused on this device, by id: the list flags them. */
export function useLoansNeedingAttention(): ReadonlySet<string> {
  const { draftKeys } = useRefusals();
  const flagged = new Set<string>();
  for (const key of draftKeys) {
    const { kind, parts } = parseDraftKey(key);
    if ((kind === REQUEST_DRAFT_KIND || kind === 'loan-state') && parts[0]) flagged.add(parts[0]);
  }
  return flagged;
}
