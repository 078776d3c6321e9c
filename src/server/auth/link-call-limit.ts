import type { Database } from '../db/connection';
import { AppError } from '../errors/app-error';
import { clientAddressKey } from './client-address';
import { takeAttempt } from './rate-limit';
import { hashToken } from './tokens';
import { LINK_CALL_WINDOW_MS, LINK_CALLS_PER_ADDRESS, LINK_CALLS_PER_LINK } from '../../shared/rules/rate-limits';

/**
 * Counts one call that carries a link's token (sign-up, reset, signing page) in the shared
 * (database) counters, before any of its work, or refuses it with 429 tooManyAttempts and the
 * seconds to wait (docs/decisions.md 550). The address first, so made-up tokens from one address
 * stop there and add no more counters; then the link, by its hash (a live link never lies in the
 * counters in clear), over every address. Only someone holding the link can spend its count. The
 * two are counted apart: a call refused for its link still spends its address's count, so one
 * address hammering a link it has used up is stopped by its own limit too.
 */
export async function countLinkCall(db: Database, input: { token: string; address: string }): Promise<void> {
  for (const limit of [
    { key: `link:address:${clientAddressKey(input.address)}`, max: LINK_CALLS_PER_ADDRESS },
    { key: `link:token:${hashToken(input.token)}`, max: LINK_CALLS_PER_LINK },
  ]) {
    const attempt = await takeAttempt(db, [limit], LINK_CALL_WINDOW_MS);
    if (!attempt.allowed) throw new AppError(429, 'tooManyAttempts', { retryAfter: attempt.retryAfter });
  }
}
