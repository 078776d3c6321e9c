import type { Database } from '../db/connection';
import { AppError } from '../errors/app-error';
import { takeAttempt } from './rate-limit';
import type { SessionUser } from './sessions';
import { APPLICATION_CREATE_WINDOW_MS, APPLICATION_CREATES_PER_WINDOW } from '../../shared/rules/rate-limits';

/** Whose count a new application goes to: the lawyer's, or the staff member's who creates it for one. */
function creatorKey(user: Pick<SessionUser, 'id' | 'role' | 'lawyerId'>): string {
  return user.role === 'lawyer' && user.lawyerId !== null
    ? `application-create:lawyer:${user.lawyerId}`
    : `application-create:user:${user.id}`;
}

/**
 * Counts one application creation in the shared (database) counters, or refuses it with 429
 * tooManyAttempts and the seconds to wait. Called inside the creating transaction, so a create
 * that fails later (the email taken meanwhile) takes its count back with it.
 */
export async function countApplicationCreate(db: Database, user: Pick<SessionUser, 'id' | 'role' | 'lawyerId'>): Promise<void> {
  const attempt = await takeAttempt(
    db,
    [{ key: creatorKey(user), max: APPLICATION_CREATES_PER_WINDOW }],
    APPLICATION_CREATE_WINDOW_MS,
  );
  if (!attempt.allowed) throw new AppError(429, 'tooManyAttempts', { retryAfter: attempt.retryAfter });
}
