import { api } from '../../api/client';
import { unwrap } from '../../api/failure';
import { PAGE_SIZE } from '../../../shared/rules/limits';
import type { components } from '../../../shared/api/schema';
import type { LoanStatus } from '../../../shared/rules/statuses';
import { listApiQuery, type ListQuery } from '../../ui/list-query';

export type Loan = components['schemas']['Loan'];
export type LoanList = components['schemas']['LoanList'];
export type LoanAggregate = components['schemas']['LoanAggregate'];
export type DrawdownList = components['schemas']['DrawdownList'];
export type Drawdown = components['schemas']['Drawdown'];

export async function fetchLoans(query: ListQuery<LoanStatus>): Promise<LoanList> {
  return unwrap(
    await api.GET('/loans', {
      params: { query: listApiQuery(query) },
    }),
  );
}

export async function fetchLoansAggregate(): Promise<LoanAggregate> {
  return unwrap(await api.GET('/loans/aggregate'));
}

export async function fetchLoan(id: number): Promise<Loan> {
  return unwrap(await api.GET('/loans/{id}', { params: { path: { id } } }));
}

/** A loan's drawdowns (one page, newest first). */
export async function fetchLoanDrawdowns(loanId: number, page: number): Promise<DrawdownList> {
  return unwrap(await api.GET('/drawdowns', { params: { query: { loanId, page, pageSize: PAGE_SIZE } } }));
}

/** One drawdown, as its change starts from (the same record and saved copy as the drawdown page's). */
export async function fetchDrawdownRecord(id: number): Promise<Drawdown> {
  return unwrap(await api.GET('/drawdowns/{id}', { params: { path: { id } } }));
}

export type FacilityHistory = components['schemas']['FacilityHistory'];
export type FacilityChange = components['schemas']['FacilityChange'];

/** Every change of the loan's facility, newest first. */
export async function fetchFacilityHistory(loanId: number): Promise<FacilityHistory> {
  return unwrap(await api.GET('/loans/{id}/facility-history', { params: { path: { id: loanId } } }));
}
