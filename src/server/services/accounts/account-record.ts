import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { type Database } from '../../db/connection';
import { users, userTokens } from '../../db/schema';
import type { PublicContext } from '../context';
import { AppError } from '../../errors/app-error';
import { hashPassword } from '../../auth/passwords';
import { createSession, loadSessionUser, revokeAllSessions, type SessionUser } from '../../auth/sessions';
import { removeSessionSubscriptions } from '../../push/session-subscriptions';
import { hashToken, newLinkToken } from '../../auth/tokens';
import { recordAudit } from '../audit';
import { clearCounters } from '../../auth/rate-limit';
import { clientAddressKey } from '../../auth/client-address';
import { fieldCodes } from '../../../shared/schemas/account';

/** Where a sign-in or a password change came from, as the session and the audit keep it. */
export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

/** The request's origin (the service context's) as the session records it. */
export function metaOf(origin: PublicContext['origin']): RequestMeta {
  return { ip: origin.address, ...(origin.device ? { userAgent: origin.device } : {}) };
}

export interface SignedIn {
  token: string;
  user: SessionUser;
}

/** Runs a shared schema again on the server: the client's check is never trusted. */
export function parse<T extends v.GenericSchema>(schema: T, input: unknown): v.InferOutput<T> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw AppError.ruleFailed(fieldCodes(result.issues));
  return result.output;
}

export function tooMany(wait: number): AppError {
  return new AppError(429, 'tooManyAttempts', { retryAfter: wait });
}

/** The sign-in counters of one attempt, checked in this order (see shared/rules/rate-limits.ts). */
export function signInKeys(login: string, ip: string) {
  const address = clientAddressKey(ip);
  return {
    address: `sign-in:address:${address}`,
    accountFromAddress: `sign-in:account-address:${login}:${address}`,
    account: `sign-in:account:${login}`,
  };
}

/** Opens a session only while the account still has the password that was checked. */
export async function openSession(db: Database, userId: number, meta: RequestMeta, passwordHash: string): Promise<SignedIn> {
  const opened = await createSession(db, userId, passwordHash, meta);
  if (!opened) throw new AppError(401, 'invalidCredentials');
  const { token, sessionId } = opened;
  await recordAudit(db, {
    actorUserId: userId,
    entityType: 'session',
    entityId: sessionId,
    action: 'signedIn',
    to: { ip: meta.ip },
  });
  const user = await loadSessionUser(db, userId);
  if (!user) throw AppError.unauthorized();
  return { token, user };
}

type Purpose = 'invitation' | 'reset';

/**
 * A link token that is unused, unexpired and belongs to a live account; else 'invalidToken'.
 * An invitation is good only while the account is still invited: once a password is set it
 * has done its job.
 */
export async function findLiveToken(db: Database, purpose: Purpose, token: string) {
  const [row] = await db
    .select({ tokenId: userTokens.id, userId: users.id, email: users.email, status: users.status })
    .from(userTokens)
    .innerJoin(users, eq(users.id, userTokens.userId))
    .where(
      and(
        eq(userTokens.tokenHash, hashToken(token)),
        eq(userTokens.purpose, purpose),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, sql`now()`),
        isNull(users.deletedAt),
      ),
    );
  const usable = row && (purpose === 'invitation' ? row.status === 'invited' : row.status !== 'disabled');
  if (!usable) throw new AppError(400, 'invalidToken');
  return row;
}

/** Marks the token used; only one of two racing requests gets true. */
async function consumeToken(db: Database, tokenId: number): Promise<boolean> {
  const used = await db
    .update(userTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(userTokens.id, tokenId), isNull(userTokens.usedAt)))
    .returning({ id: userTokens.id });
  return used.length === 1;
}

export async function issueToken(db: Database, userId: number, purpose: Purpose, ttlMs: number): Promise<string> {
  const token = newLinkToken();
  await db.insert(userTokens).values({ userId, purpose, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

/**
 * Sets a password through a link (invitation or reset): the link is checked first, so a made-up
 * link costs no password hashing; then, in one transaction, the link is used up (only one racing
 * request wins), the password set, every other link and session of the account ended, and a new
 * session opened.
 */
export async function setPasswordByLink(
  db: Database,
  purpose: Purpose,
  input: { token: string; login: string; password: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  const checked = await findLiveToken(db, purpose, input.token);
  if (checked.email !== input.login) throw new AppError(400, 'invalidToken');
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    // The account first, then its links: two links of one account used at once queue here
    // instead of deadlocking on each other's rows.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, checked.userId)).for('update');
    const row = await findLiveToken(tx, purpose, input.token);
    if (!(await consumeToken(tx, row.tokenId))) throw new AppError(400, 'invalidToken');
    await tx
      .update(users)
      .set({ passwordHash, status: 'active', updatedAt: sql`now()` })
      .where(eq(users.id, row.userId));
    await tx
      .update(userTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(userTokens.userId, row.userId), isNull(userTokens.usedAt)));
    await revokeAllSessions(tx, row.userId);
    await removeSessionSubscriptions(tx, { userId: row.userId });
    // Someone who just proved their email may sign in again at once, from here and elsewhere.
    const keys = signInKeys(row.email, meta.ip);
    await clearCounters(tx, [keys.account, keys.accountFromAddress]);
    await recordAudit(tx, {
      actorUserId: row.userId,
      entityType: 'user',
      entityId: row.userId,
      action: purpose === 'invitation' ? 'signedUp' : 'passwordChanged',
      from: { status: row.status },
      to: { status: 'active' },
    });
    return openSession(tx, row.userId, meta, passwordHash);
  });
}
