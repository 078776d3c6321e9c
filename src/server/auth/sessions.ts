import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/connection';
import { selectAccounts } from '../db/account-query';
import { sessions, users } from '../db/schema';
import { isRole, permissionsByRole, type Permission, type Role } from '../../shared/rules/permissions';
import { SESSION_IDLE_TIMEOUT_MS } from '../../shared/rules/limits';
import { hashToken, newSessionToken } from './tokens';

export interface SessionUser {
  id: number;
  firmId: number | null;
  lawyerId: number | null;
  customerId: number | null;
  role: Role;
  permissions: Permission[];
  email: string;
  name: string;
  surname: string;
  /** The session the request came with (set on authenticated requests): what it makes ends with it. */
  sessionId?: number;
}

export interface Authenticated {
  sessionId: number;
  user: SessionUser;
}

const idleCutoff = sql`now() - ${SESSION_IDLE_TIMEOUT_MS} * interval '1 millisecond'`;

type SessionUserRow = Omit<SessionUser, 'role' | 'permissions'> & { role: string };

function toSessionUser(row: SessionUserRow): SessionUser {
  if (!isRole(row.role)) throw new Error(`user ${row.id} has an unknown role`);
  return { ...row, role: row.role, permissions: [...permissionsByRole[row.role]] };
}

export async function loadSessionUser(db: Database, userId: number): Promise<SessionUser | undefined> {
  const [row] = await selectAccounts(db, {}).where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return row ? toSessionUser(row) : undefined;
}

/**
 * Opens a session for an active account whose password hash is still the one the caller checked
 * (one statement): a sign-in that raced a password reset opens nothing. Undefined when refused.
 */
export async function createSession(
  db: Database,
  userId: number,
  passwordHash: string,
  meta: { ip?: string; userAgent?: string },
): Promise<{ token: string; sessionId: number } | undefined> {
  const token = newSessionToken();
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into sessions (user_id, token_hash, ip, user_agent)
        select id, ${hashToken(token)}, ${meta.ip ?? null}, ${meta.userAgent?.slice(0, 500) ?? null}
        from users where id = ${userId} and password_hash = ${passwordHash} and status = 'active' and deleted_at is null
        returning id`,
  );
  return row ? { token, sessionId: row.id } : undefined;
}

/** Activity is written at most this often, so a busy session is not one write per request. */
export const TOUCH_EVERY_MS = 60_000;

/** A session found for a token, with the database's time of its last recorded activity. */
export interface FoundSession extends Authenticated {
  lastSeenAt: Date;
}

/**
 * A bearer token is good while its session is not revoked, has seen activity within the idle
 * timeout, and its user is active. Each use counts as activity (written at most every minute).
 * The session cache (auth/session-cache.ts) answers most requests without this statement.
 */
export async function authenticateToken(db: Database, token: string): Promise<Authenticated | undefined> {
  const found = await findSession(db, hashToken(token));
  return found && { sessionId: found.sessionId, user: found.user };
}

/** authenticateToken by the token's hash, answering when activity was last written. */
export async function findSession(db: Database, tokenHash: string): Promise<FoundSession | undefined> {
  const [row] = await selectAccounts(db, { sessionId: sessions.id, lastSeenAt: sessions.lastSeenAt })
    .innerJoin(sessions, eq(sessions.userId, users.id))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        isNull(sessions.revokedAt),
        gt(sessions.lastSeenAt, idleCutoff),
        isNull(users.deletedAt),
        eq(users.status, 'active'),
      ),
    );
  if (!row) return undefined;
  const { sessionId, lastSeenAt, ...user } = row;
  const seen = Date.now() - lastSeenAt.getTime() > TOUCH_EVERY_MS ? await touchSession(db, sessionId) : lastSeenAt;
  if (!seen) return undefined;
  return { sessionId, lastSeenAt: seen, user: { ...toSessionUser(user), sessionId } };
}

/**
 * Records activity on a session still open (not revoked, not idle past the timeout: the database's
 * clock decides, as in findSession) and answers the time written; undefined when it has ended.
 */
export async function touchSession(db: Database, sessionId: number): Promise<Date | undefined> {
  const [row] = await db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.lastSeenAt, idleCutoff)))
    .returning({ lastSeenAt: sessions.lastSeenAt });
  return row?.lastSeenAt;
}

export async function revokeSession(db: Database, sessionId: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** After a password change every other session of the account ends. */
export async function revokeAllSessions(db: Database, userId: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}
