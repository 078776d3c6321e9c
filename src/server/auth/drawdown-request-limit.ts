import type { Database } from '../db/connection';
import { AppError } from '../errors/app-error';
import { takeAttempt } from './rate-limit';
import type { SessionUser } from './sessions';
import {
  DRAWDOWN_REQUEST_WINDOW_MS,
  DRAWDOWN_REQUESTS_PER_LOAN,
  DRAWDOWN_REQUESTS_PER_REQUESTER,
} from '../../shared/rules/rate-limits';

/** Whose count a drawdown request goes to: the lawyer's (any of their sessions), or the user's. */
function requesterKey(user: Pick<SessionUser, 'id' | 'role' | 'lawyerId'>): string {
  return user.role === 'lawyer' && user.lawyerId !== null
    ? `drawdown-request:lawyer:${user.lawyerId}`
    : `drawdown-request:user:${user.id}`;
}

/**
 * Counts one drawdown request on its loan and its requester in the shared (database) counters, or
 * refuses it with 429 tooManyAttempts and the seconds to wait (docs/decisions.md 551). Called
 * inside the creating transaction, after the request's own checks, so a request refused for its
 * own reasons (a field, the credit) takes its count back with it, and a refused one writes nothing.
 */
export async function countDrawdownRequest(
  db: Database,
  input: { loanId: number; user: Pick<SessionUser, 'id' | 'role' | 'lawyerId'> },
): Promise<void> {
  const attempt = await takeAttempt(
    db,
    [
      { key: `drawdown-request:loan:${input.loanId}`, max: DRAWDOWN_REQUESTS_PER_LOAN },
      { key: requesterKey(input.user), max: DRAWDOWN_REQUESTS_PER_REQUESTER },
    ],
    DRAWDOWN_REQUEST_WINDOW_MS,
  );
  if (!attempt.allowed) throw new AppError(429, 'tooManyAttempts', { retryAfter: attempt.retryAfter });
}
