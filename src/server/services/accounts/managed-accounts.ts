import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { Database } from '../../db/connection';
import { sessions, users, userTokens } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { fieldCodes } from '../../../shared/schemas/account';
import { recordAudit } from '../audit';
import { isUniqueViolation } from '../../errors/database-errors';

/** Runs a shared form schema on the server: 400 {error: 'validation', fields} when it fails. */
export function parseForm<T extends v.GenericSchema>(schema: T, input: unknown): v.InferOutput<T> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw AppError.ruleFailed(fieldCodes(result.issues));
  return result.output;
}

const loginTaken = () => AppError.validation({ login: 'login' });

/** Refuses an email that already belongs to a live account (fields.login = 'login'). */
export async function assertLoginFree(db: Database, email: string): Promise<void> {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1);
  if (taken) throw loginTaken();
}

/**
 * Runs a write that creates an account; a request that took the same email meanwhile makes the
 * unique index refuse it, which is answered as the login error, not a 500.
 */
export async function withLoginGuard<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw loginTaken();
    throw error;
  }
}

/** An account created by staff or a firm admin: no password, invited until the link is used. */
export async function insertInvitedAccount(
  db: Database,
  account: { email: string; role: 'firm' | 'lawyer'; firstName: string; surname: string; firmId: number },
  actorUserId: number,
) {
  const [user] = await db
    .insert(users)
    .values({ ...account, passwordHash: null, status: 'invited' })
    .returning({ id: users.id, email: users.email });
  await recordAudit(db, {
    actorUserId,
    entityType: 'user',
    entityId: user!.id,
    action: 'created',
    to: {
      role: account.role,
      firmId: account.firmId,
      email: account.email,
      firstName: account.firstName,
      surname: account.surname,
    },
  });
  return user!;
}

/**
 * Soft-deletes accounts: they can no longer sign in (deleted_at), every session ends at once and
 * every open link (invitation, reset) is spent. The rows stay, so history that names them reads.
 */
export async function softDeleteAccounts(db: Database, userIds: number[], actorUserId: number): Promise<void> {
  if (userIds.length === 0) return;
  const deleted = await db
    .update(users)
    .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(inArray(users.id, userIds), isNull(users.deletedAt)))
    .returning({ id: users.id, status: users.status });
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(inArray(sessions.userId, userIds), isNull(sessions.revokedAt)));
  await db
    .update(userTokens)
    .set({ usedAt: sql`now()` })
    .where(and(inArray(userTokens.userId, userIds), isNull(userTokens.usedAt)));
  for (const user of deleted) {
    await recordAudit(db, {
      actorUserId,
      entityType: 'user',
      entityId: user.id,
      action: 'deleted',
      from: { status: user.status },
      to: { deleted: true },
    });
  }
}
