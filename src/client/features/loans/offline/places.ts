import { paths } from '../../../routing/paths';
import { registerDraftPlace, registerWritePlace, useRefusals } from '../../../offline/attention';
import { parseDraftKey } from '../../../offline/draft-keys';
import { REQUEST_DRAFT_KIND } from './request-drawdown-mutation';

/**
 * Where a loan's drafts and writes are seen and fixed, for the list of what waits on the device
 * (offline/attention.ts, decision 342): all of them on the loan's page.
 */

const loanPlace = (loanId: unknown, what: string) =>
  loanId === undefined || loanId === ''
    ? null
    : { label: `Loan ${String(loanId)}: ${what}`, href: paths.loan.url({ id: String(loanId) }) };

registerDraftPlace(REQUEST_DRAFT_KIND, ([loanId]) => loanPlace(loanId, 'drawdown request'));
registerDraftPlace('loan-state', ([loanId]) => loanPlace(loanId, 'status change'));
registerWritePlace<{ loanId: number }>('requestDrawdown', ({ loanId }) => loanPlace(loanId, 'drawdown request'));
registerWritePlace<{ loanId: number; state: string }>('changeLoanState', ({ loanId }) => loanPlace(loanId, 'status change'));

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
