import { changeLoanState } from '../services/loans/change-loan-state';
import { getLoan } from '../services/loans/get-loan';
import { getLoanFacilityHistory } from '../services/loans/get-loan-facility-history';
import { getLoansAggregate } from '../services/loans/get-loans-aggregate';
import { listLoans } from '../services/loans/list-loans';
import { requestLoanBalance } from '../services/loans/request-loan-balance';
import { signLoanVariation } from '../services/loans/sign-loan-variation';
import { updateLoanAmount } from '../services/loans/update-loan-amount';
import { serviceContext, type Handlers } from './handler';

/** Loans: the scoped list and overview, one loan, its status, its facility and its variations, the balance request. */
export const loanHandlers: Handlers = {
  listLoans: async (request, _reply, ctx) => listLoans(serviceContext(request, ctx), request.query),

  getLoansAggregate: async (request, _reply, ctx) => getLoansAggregate(serviceContext(request, ctx), request.query),

  getLoan: async (request, _reply, ctx) => getLoan(serviceContext(request, ctx), { id: request.params.id }),

  requestLoanBalance: async (request, _reply, ctx) => requestLoanBalance(serviceContext(request, ctx), { id: request.params.id }),

  updateLoanState: async (request, _reply, ctx) =>
    changeLoanState(serviceContext(request, ctx), { id: request.params.id, state: request.body.state }),

  updateLoanAmount: async (request, _reply, ctx) => updateLoanAmount(serviceContext(request, ctx), request.body),

  signLoanVariation: async (request, _reply, ctx) => signLoanVariation(serviceContext(request, ctx), { id: request.params.id }),

  getLoanFacilityHistory: async (request, _reply, ctx) =>
    getLoanFacilityHistory(serviceContext(request, ctx), { id: request.params.id }),
};
