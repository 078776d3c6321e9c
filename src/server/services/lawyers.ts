import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../db/connection';
import { firms, lawyers, users } from '../db/schema';
import type { SessionUser } from '../auth/sessions';
import { AppError } from '../http/app-error';
import type { ServiceContext } from './context';
import { assertCan } from '../policies/assert-can';
import * as lawyerPolicy from '../policies/lawyers';
import { lawyerCreateSchema, lawyerUpdateSchema } from '../../shared/schemas/administration';
import { inviteUser } from './accounts';
import { activeCase } from '../db/active-case';
import { searchPattern } from '../db/like';
import { pageClause, type Paging } from '../db/paging';
import { recordAudit } from './audit';
import { assertLoginFree, insertInvitedAccount, parseForm, softDeleteAccounts, withLoginGuard } from './managed-accounts';

export interface LawyerFilter {
  search?: string;
  firmId?: number;
}

interface LawyerRow {
  id: number;
  firstName: string;
  surname: string;
  login: string;
  firmId: number;
  firmName: string;
  state: 'invited' | 'active' | 'disabled';
  casesAmount: number;
}

/** The wire's Lawyer. */
function toLawyer(row: LawyerRow) {
  const { firmName, ...rest } = row;
  return { ...rest, firm: { id: row.firmId, firmName } };
}

/** Live lawyers the scope reaches, filtered; aliases: u (users), f (firms). */
function where(user: SessionUser, filter: LawyerFilter): SQL {
  const pattern = searchPattern(filter.search);
  const parts: SQL[] = [sql`lawyers.deleted_at is null`, lawyerPolicy.scope(user) ?? sql`true`];
  if (filter.firmId !== undefined) parts.push(sql`lawyers.firm_id = ${filter.firmId}`);
  if (pattern)
    parts.push(
      sql`(u.first_name ilike ${pattern} or u.surname ilike ${pattern} or u.email ilike ${pattern} or (u.first_name || ' ' || u.surname) ilike ${pattern} or f.name ilike ${pattern})`,
    );
  return sql.join(parts, sql` and `);
}

const lawyerColumns = sql`lawyers.id, u.first_name as "firstName", u.surname, u.email as login, lawyers.firm_id as "firmId", f.name as "firmName", u.status as state,
  (select count(*)::int from applications a where a.lawyer_id = lawyers.id and ${activeCase('a')}) as "casesAmount"`;
const lawyerFrom = sql`from lawyers join users u on u.id = lawyers.user_id join firms f on f.id = lawyers.firm_id`;

/** A page of lawyers, newest first: one query for the page, one for the total. */
export async function listLawyers({ db, actor: user }: ServiceContext, query: Paging & LawyerFilter) {
  const condition = where(user, query);
  const [rows, [count]] = await Promise.all([
    queryRows<LawyerRow>(
      db,
      sql`select ${lawyerColumns} ${lawyerFrom} where ${condition} order by lawyers.id desc ${pageClause(query)}`,
    ),
    queryRows<{ total: number }>(db, sql`select count(*)::int as total ${lawyerFrom} where ${condition}`),
  ]);
  return { items: rows.map(toLawyer), total: count?.total ?? 0, page: query.page, pageSize: query.pageSize };
}

/** The lawyers list of one firm (the firm page); the caller's right to the firm is checked first. */
export async function listLawyersOfFirm(ctx: ServiceContext, firmId: number, query: Paging & { search?: string }) {
  return listLawyers(ctx, { ...query, firmId });
}

/** Lawyers on the hub and those with an active case, in one query. */
export async function countLawyers({ db, actor: user }: ServiceContext, filter: LawyerFilter) {
  const [row] = await queryRows<{ total: number; withActiveCases: number }>(
    db,
    sql`select count(*)::int as total,
          count(*) filter (where exists (select 1 from applications a where a.lawyer_id = lawyers.id and ${activeCase('a')}))::int as "withActiveCases"
        ${lawyerFrom} where ${where(user, filter)}`,
  );
  return { total: row?.total ?? 0, withActiveCases: row?.withActiveCases ?? 0 };
}

async function findLawyer(db: Database, user: SessionUser, id: number) {
  const [row] = await queryRows<LawyerRow>(
    db,
    sql`select ${lawyerColumns} ${lawyerFrom} where lawyers.id = ${id} and ${where(user, {})}`,
  );
  return row ? toLawyer(row) : undefined;
}

/** One lawyer; another firm's lawyer (for a firm admin), or a deleted one, is 404. */
export async function getLawyer({ db, actor: user }: ServiceContext, { id }: { id: number }) {
  const lawyer = await findLawyer(db, user, id);
  if (!lawyer) throw AppError.notFound();
  return lawyer;
}

/**
 * Adds a lawyer under a firm and invites them (/sign-up-lawyer/{uuid}), in one transaction. A
 * firm admin adds only to their own firm (another firm is 404); staff name any live firm.
 */
export async function createLawyer(
  ctx: ServiceContext,
  body: { firstName: string; surname: string; login: string; firmId: number },
) {
  const { db, config, actor: user } = ctx;
  const input = parseForm(lawyerCreateSchema, body);
  assertCan(lawyerPolicy.can(user, 'manage', { firmId: body.firmId }), 'notFound');
  const lawyerId = await withLoginGuard(() =>
    db.transaction(async (tx) => {
      // A firm being deleted meanwhile: its row is locked by the delete, and is gone after it.
      const [firm] = await tx
        .select({ id: firms.id })
        .from(firms)
        .where(and(eq(firms.id, body.firmId), isNull(firms.deletedAt)))
        .for('share');
      if (!firm) throw AppError.notFound();
      await assertLoginFree(tx, input.login);
      const account = await insertInvitedAccount(
        tx,
        { email: input.login, role: 'lawyer', firstName: input.firstName, surname: input.surname, firmId: firm.id },
        user.id,
      );
      const [lawyer] = await tx.insert(lawyers).values({ userId: account.id, firmId: firm.id }).returning({ id: lawyers.id });
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'lawyer',
        entityId: lawyer!.id,
        action: 'created',
        to: { userId: account.id, firmId: firm.id },
      });
      await inviteUser(tx, config, { userId: account.id, email: input.login, kind: 'lawyer', actorUserId: user.id });
      return lawyer!.id;
    }),
  );
  return getLawyer(ctx, { id: lawyerId });
}

/** The lawyer row locked for a change, if the caller manages it. */
async function lockLawyer(db: Database, user: SessionUser, id: number) {
  const [row] = await db
    .select({
      id: lawyers.id,
      userId: lawyers.userId,
      firmId: lawyers.firmId,
      firstName: users.firstName,
      surname: users.surname,
    })
    .from(lawyers)
    .innerJoin(users, eq(users.id, lawyers.userId))
    .where(and(eq(lawyers.id, id), isNull(lawyers.deletedAt)))
    .for('update', { of: lawyers });
  if (!row) throw AppError.notFound();
  assertCan(lawyerPolicy.can(user, 'manage', row), 'notFound');
  return row;
}

/** Changes a lawyer's names; the login is read-only (the contract refuses it as unknownField). */
export async function updateLawyer(ctx: ServiceContext, body: { lawyerId: number; firstName?: string; surname?: string }) {
  const { db, actor: user } = ctx;
  const input = parseForm(lawyerUpdateSchema, body);
  await db.transaction(async (tx) => {
    const lawyer = await lockLawyer(tx, user, body.lawyerId);
    const changes = {
      ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
      ...(input.surname !== undefined ? { surname: input.surname } : {}),
    };
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(users)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(users.id, lawyer.userId));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'lawyer',
      entityId: lawyer.id,
      action: 'updated',
      from: { firstName: lawyer.firstName, surname: lawyer.surname },
      to: changes,
    });
  });
  return getLawyer(ctx, { id: body.lawyerId });
}

/** True when any of these lawyers has an active case. */
export async function lawyersHaveActiveCases(db: Database, lawyerIds: number[]): Promise<boolean> {
  if (lawyerIds.length === 0) return false;
  const [row] = await queryRows<{ active: boolean }>(
    db,
    sql`select exists (select 1 from applications a where a.lawyer_id in (${sql.join(
      lawyerIds.map((id) => sql`${id}`),
      sql`, `,
    )}) and ${activeCase('a')}) as active`,
  );
  return row?.active === true;
}

/**
 * Deletes a lawyer with no active case (else 400 hasActiveCases): the lawyer and their account
 * are soft-deleted, their sessions end. Their applications keep naming them.
 */
export async function deleteLawyer({ db, actor: user }: ServiceContext, { id }: { id: number }): Promise<void> {
  await db.transaction(async (tx) => {
    // Locked first: an application being created for this lawyer holds a key-share lock on the
    // row, so the check below waits for it and then sees it.
    const lawyer = await lockLawyer(tx, user, id);
    if (await lawyersHaveActiveCases(tx, [lawyer.id])) throw new AppError(400, 'hasActiveCases');
    await tx
      .update(lawyers)
      .set({ deletedAt: sql`now()` })
      .where(eq(lawyers.id, lawyer.id));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'lawyer',
      entityId: lawyer.id,
      action: 'deleted',
      from: { firmId: lawyer.firmId },
      to: { deleted: true },
    });
    await softDeleteAccounts(tx, [lawyer.userId], user.id);
  });
}
