import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { Config } from '../config';
import type { Database } from '../db/connection';
import { users, userTokens } from '../db/schema';
import { AppError } from '../http/app-error';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { createSession, loadSessionUser, revokeAllSessions, revokeSession, type SessionUser } from '../auth/sessions';
import { hashToken, newLinkToken } from '../auth/tokens';
import { enqueueEmail } from '../mail/outbox';
import { invitationEmail, resetEmail, type InvitationKind } from '../mail/templates';
import { recordAudit } from './audit';
import { clearCounters, giveBack, takeAttempt } from './rate-limit';
import { clientAddressKey } from '../http/client-address';
import { fieldCodes, passwordUpdateSchema, resetRequestSchema, signInSchema, signUpSchema } from '../../shared/schemas/account';
import {
  INVITATION_TTL_MS,
  RESET_MAX_PER_ACCOUNT,
  RESET_MAX_PER_ADDRESS,
  RESET_TTL_MS,
  RESET_WINDOW_MS,
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS,
  SIGN_IN_MAX_FAILURES_PER_ADDRESS,
  SIGN_IN_WINDOW_MS,
} from '../../shared/rules/limits';

export interface RequestMeta {
  ip: string;
  userAgent?: string;
}

export interface SignedIn {
  token: string;
  user: SessionUser;
}

/** Runs a shared schema again on the server: the client's check is never trusted. */
function parse<T extends v.GenericSchema>(schema: T, input: unknown): v.InferOutput<T> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw AppError.ruleFailed(fieldCodes(result.issues));
  return result.output;
}

function tooMany(wait: number): AppError {
  return new AppError(429, 'tooManyAttempts', { retryAfter: wait });
}

/** The sign-in counters of one attempt, checked in this order (see limits.ts). */
function signInKeys(login: string, ip: string) {
  const address = clientAddressKey(ip);
  return {
    address: `sign-in:address:${address}`,
    accountFromAddress: `sign-in:account-address:${login}:${address}`,
    account: `sign-in:account:${login}`,
  };
}

export async function signIn(db: Database, body: unknown, meta: RequestMeta): Promise<SignedIn> {
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

/** Opens a session only while the account still has the password that was checked. */
async function openSession(db: Database, userId: number, meta: RequestMeta, passwordHash: string): Promise<SignedIn> {
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

export async function signOut(db: Database, userId: number, sessionId: number): Promise<void> {
  await revokeSession(db, sessionId);
  await recordAudit(db, {
    actorUserId: userId,
    entityType: 'session',
    entityId: sessionId,
    action: 'signedOut',
    from: { state: 'active' },
    to: { state: 'revoked' },
  });
}

type Purpose = 'invitation' | 'reset';

/**
 * A link token that is unused, unexpired and belongs to a live account; else 'invalidToken'.
 * An invitation is good only while the account is still invited: once a password is set it
 * has done its job.
 */
async function findLiveToken(db: Database, purpose: Purpose, token: string) {
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

async function issueToken(db: Database, userId: number, purpose: Purpose, ttlMs: number): Promise<string> {
  const token = newLinkToken();
  await db.insert(userTokens).values({ userId, purpose, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

/**
 * Creates the token of an invitation and its email (`/sign-up-{kind}/{uuid}`). Called in the
 * transaction that creates the account, so no invitation exists for an account that does not.
 */
export async function inviteUser(
  db: Database,
  config: Config,
  invite: { userId: number; email: string; kind: InvitationKind; actorUserId: number | null; applicationId?: number },
): Promise<string> {
  const token = await issueToken(db, invite.userId, 'invitation', INVITATION_TTL_MS);
  const email = invitationEmail(config.brand, invite.kind, `${config.publicUrl}/sign-up-${invite.kind}/${token}`);
  await enqueueEmail(db, { to: invite.email, ...email, userType: invite.kind, applicationId: invite.applicationId ?? null });
  await recordAudit(db, {
    actorUserId: invite.actorUserId,
    entityType: 'user',
    entityId: invite.userId,
    action: 'invited',
    to: { status: 'invited' },
  });
  return token;
}

export async function validateSignUp(db: Database, uuid: string): Promise<{ login: string }> {
  const row = await findLiveToken(db, 'invitation', uuid);
  return { login: row.email };
}

/**
 * Sets a password through a link (invitation or reset): the link is checked first, so a made-up
 * link costs no password hashing; then, in one transaction, the link is used up (only one racing
 * request wins), the password set, every other link and session of the account ended, and a new
 * session opened.
 */
async function setPasswordByLink(
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

export async function completeSignUp(
  db: Database,
  body: { login: string; password: string; uuid: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  const { login, password } = parse(signUpSchema, body);
  return setPasswordByLink(db, 'invitation', { token: body.uuid, login, password }, meta);
}

export async function updatePassword(
  db: Database,
  body: { token: string; login: string; password: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  const { login, password } = parse(passwordUpdateSchema, body);
  return setPasswordByLink(db, 'reset', { token: body.token, login, password }, meta);
}

/** Always answers the same, whether or not the account exists: nobody learns who has one. */
export async function requestPasswordReset(db: Database, config: Config, body: unknown, meta: RequestMeta): Promise<void> {
  const { login } = parse(resetRequestSchema, body);
  const attempt = await takeAttempt(
    db,
    [
      { key: `reset:address:${clientAddressKey(meta.ip)}`, max: RESET_MAX_PER_ADDRESS },
      { key: `reset:account:${login}`, max: RESET_MAX_PER_ACCOUNT },
    ],
    RESET_WINDOW_MS,
  );
  if (!attempt.allowed) throw tooMany(attempt.retryAfter);

  await db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, role: users.role, status: users.status })
      .from(users)
      .where(and(eq(users.email, login), isNull(users.deletedAt)));
    if (!user || user.status === 'disabled') return;
    // A newer link replaces any earlier one.
    await tx
      .update(userTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(userTokens.userId, user.id), eq(userTokens.purpose, 'reset'), isNull(userTokens.usedAt)));
    const token = await issueToken(tx, user.id, 'reset', RESET_TTL_MS);
    const email = resetEmail(config.brand, `${config.publicUrl}/reset/validate/${token}`);
    await enqueueEmail(tx, { to: login, ...email, userType: user.role });
    await recordAudit(tx, { actorUserId: null, entityType: 'user', entityId: user.id, action: 'passwordResetRequested' });
  });
}

export async function validatePasswordReset(db: Database, body: { token: string; login?: string }): Promise<{ login: string }> {
  const row = await findLiveToken(db, 'reset', body.token);
  if (body.login !== undefined && body.login.trim().toLowerCase() !== row.email) throw new AppError(400, 'invalidToken');
  return { login: row.email };
}
