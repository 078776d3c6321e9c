import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a password-reset request takes to answer, whether or not the account exists: well
 * above the work for an existing account (a token, an email and an audit row), so the answer's
 * timing does not tell who has an account.
 */
export const RESET_ANSWER_MS = 250;

/**
 * Runs the work and answers (or fails) no sooner than `ms` after it began. The work itself is
 * done before the answer, so what a caller reads next (the outbox, the audit) is already there.
 */
export async function answerNoSoonerThan<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    // A timer may fire a fraction of a millisecond early by the performance clock, so wait
    // again until the whole span has passed.
    for (let left = ms - (performance.now() - started); left > 0; left = ms - (performance.now() - started)) {
      await sleep(Math.ceil(left));
    }
  }
}
