import type { PublicContext } from '../context';
import { and, eq, isNull } from 'drizzle-orm';
import { users } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { verifyPassword } from '../../auth/passwords';
import { clearCounters, giveBack, takeAttempt } from '../../auth/rate-limit';
import { signInSchema } from '../../../shared/schemas/account';
import {
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS,
  SIGN_IN_MAX_FAILURES_PER_ADDRESS,
  SIGN_IN_WINDOW_MS,
} from '../../../shared/rules/rate-limits';
import { type SignedIn, openSession, parse, signInKeys, tooMany, metaOf } from './account-record';

/**
 * Signs in with email and password, counted against the sign-in limits (per address, per account
 * from one address, per account): 401 `invalidCredentials` for any wrong pair, 429 beyond a limit.
 */
export async function signIn({ db, origin }: PublicContext, body: unknown): Promise<SignedIn> {
  const meta = metaOf(origin);
  const input = parse(signInSchema, body);
  const keys = signInKeys(input.login, meta.ip);
  const attempt = await takeAttempt(
    db,
    [
      { key: keys.address, max: SIGN_IN_MAX_FAILURES_PER_ADDRESS },
      { key: keys.accountFromAddress, max: SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS },
      { key: keys.account, max: SIGN_IN_MAX_FAILURES_PER_ACCOUNT },
    ],
    SIGN_IN_WINDOW_MS,
  );
  if (!attempt.allowed) throw tooMany(attempt.retryAfter);

  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash, status: users.status })
    .from(users)
    .where(and(eq(users.email, input.login), isNull(users.deletedAt)));
  const ok = (await verifyPassword(user?.passwordHash ?? null, input.password)) && user?.status === 'active';
  if (!ok || !user?.passwordHash) throw new AppError(401, 'invalidCredentials');
  // The password may have been changed while it was being checked: then the session is not opened.
  const signedIn = await openSession(db, user.id, meta, user.passwordHash);
  // Only failures count: a success clears this account's count here and gives its attempt back.
  await clearCounters(db, [keys.accountFromAddress]);
  await giveBack(
    db,
    attempt.taken.filter((t) => t.key !== keys.accountFromAddress),
  );
  return signedIn;
}
