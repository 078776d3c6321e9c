import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../db/connection';
import { firms, lawyers, users } from '../db/schema';
import { AppError } from '../http/app-error';
import type { ServiceContext } from './context';
import { assertCan } from '../policies/assert-can';
import * as firmPolicy from '../policies/firms';
import { firmCreateSchema, firmUpdateSchema } from '../../shared/schemas/administration';
import { creditUsingDrawdownStatuses } from '../../shared/rules/statuses';
import { inviteUser } from './accounts';
import { activeCase } from '../db/active-case';
import { searchPattern } from '../db/like';
import { pageClause, type Paging } from '../db/paging';
import { recordAudit } from './audit';
import { lawyersHaveActiveCases, listLawyersOfFirm } from './lawyers';
import { assertLoginFree, insertInvitedAccount, parseForm, softDeleteAccounts, withLoginGuard } from './managed-accounts';

interface FirmRow {
  id: number;
  firmName: string;
  firstName: string;
  surname: string;
  login: string;
  casesAmount: number;
  lawyersCount: number;
}

/**
 * A firm as the wire shows it: its admin (the first live account with role firm) and two counts,
 * each a subquery on an index (lawyers by firm, applications by lawyer), all in one statement.
 * Aliases: f (firms), adm (its admin).
 */
const firmSelect = sql`select f.id, f.name as "firmName",
    coalesce(adm.first_name, '') as "firstName", coalesce(adm.surname, '') as surname, coalesce(adm.email, '') as login,
    (select count(*)::int from lawyers fl where fl.firm_id = f.id and fl.deleted_at is null) as "lawyersCount",
    (select count(*)::int from applications a join lawyers al on al.id = a.lawyer_id where al.firm_id = f.id and ${activeCase('a')}) as "casesAmount"
  from firms f
  left join lateral (
    select u.first_name, u.surname, u.email from users u
    where u.firm_id = f.id and u.role = 'firm' and u.deleted_at is null order by u.id limit 1
  ) adm on true`;

function where(search: string | undefined): SQL {
  const pattern = searchPattern(search);
  return pattern
    ? sql`f.deleted_at is null and (f.name ilike ${pattern} or adm.first_name ilike ${pattern} or adm.surname ilike ${pattern} or adm.email ilike ${pattern})`
    : sql`f.deleted_at is null`;
}

/** A page of firms (newest first) with the lawyers across all firms; two queries in all. */
export async function listFirms({ db }: ServiceContext, query: Paging & { search?: string }) {
  const condition = where(query.search);
  const [items, [counts]] = await Promise.all([
    queryRows<FirmRow>(db, sql`${firmSelect} where ${condition} order by f.id desc ${pageClause(query)}`),
    queryRows<{ total: number; lawyersCount: number }>(
      db,
      sql`select
            (select count(*)::int from firms f left join lateral (
               select u.first_name, u.surname, u.email from users u
               where u.firm_id = f.id and u.role = 'firm' and u.deleted_at is null order by u.id limit 1
             ) adm on true where ${condition}) as total,
            (select count(*)::int from lawyers l join firms lf on lf.id = l.firm_id where l.deleted_at is null and lf.deleted_at is null) as "lawyersCount"`,
    ),
  ]);
  return {
    items,
    total: counts?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
    lawyersCount: counts?.lawyersCount ?? 0,
  };
}

async function findFirm(db: Database, id: number): Promise<FirmRow | undefined> {
  const [row] = await queryRows<FirmRow>(db, sql`${firmSelect} where f.id = ${id} and f.deleted_at is null`);
  return row;
}

/** One firm, for staff and the firm's own admin; anyone else (or a deleted firm) is 404. */
export async function getFirm({ db, actor: user }: ServiceContext, { id }: { id: number }) {
  assertCan(firmPolicy.can(user, 'read', { id }), 'notFound');
  const firm = await findFirm(db, id);
  if (!firm) throw AppError.notFound();
  return firm;
}

/**
 * Adds a firm and its admin account (role firm, invited) and sends the invitation
 * (/sign-up-admin/{uuid}), all in one transaction.
 */
export async function createFirm(ctx: ServiceContext, body: unknown) {
  const { db, config, actor: user } = ctx;
  const input = parseForm(firmCreateSchema, body);
  const firmId = await withLoginGuard(() =>
    db.transaction(async (tx) => {
      await assertLoginFree(tx, input.login);
      const [firm] = await tx.insert(firms).values({ name: input.firmName }).returning({ id: firms.id });
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'firm',
        entityId: firm!.id,
        action: 'created',
        to: { firmName: input.firmName },
      });
      const admin = await insertInvitedAccount(
        tx,
        { email: input.login, role: 'firm', firstName: input.firstName, surname: input.surname, firmId: firm!.id },
        user.id,
      );
      await inviteUser(tx, config, { userId: admin.id, email: input.login, kind: 'admin', actorUserId: user.id });
      return firm!.id;
    }),
  );
  return getFirm(ctx, { id: firmId });
}

/** The firm row locked for a change; 404 when there is no live firm. */
async function lockFirm(db: Database, id: number) {
  const [firm] = await db
    .select({ id: firms.id, name: firms.name })
    .from(firms)
    .where(and(eq(firms.id, id), isNull(firms.deletedAt)))
    .for('update');
  if (!firm) throw AppError.notFound();
  return firm;
}

/** Changes the firm's name and its admin's names; the admin's login is read-only. */
export async function updateFirm(
  ctx: ServiceContext,
  body: { firmId: number; firmName?: string; firstName?: string; surname?: string },
) {
  const { db, actor: user } = ctx;
  const input = parseForm(firmUpdateSchema, body);
  await db.transaction(async (tx) => {
    const firm = await lockFirm(tx, body.firmId);
    if (input.firmName !== undefined && input.firmName !== firm.name) {
      await tx
        .update(firms)
        .set({ name: input.firmName, updatedAt: sql`now()` })
        .where(eq(firms.id, firm.id));
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'firm',
        entityId: firm.id,
        action: 'updated',
        from: { firmName: firm.name },
        to: { firmName: input.firmName },
      });
    }
    const names = {
      ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
      ...(input.surname !== undefined ? { surname: input.surname } : {}),
    };
    if (Object.keys(names).length === 0) return;
    const [admin] = await tx
      .select({ id: users.id, firstName: users.firstName, surname: users.surname })
      .from(users)
      .where(and(eq(users.firmId, firm.id), eq(users.role, 'firm'), isNull(users.deletedAt)))
      .orderBy(asc(users.id))
      .limit(1)
      .for('update');
    if (!admin) return;
    await tx
      .update(users)
      .set({ ...names, updatedAt: sql`now()` })
      .where(eq(users.id, admin.id));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'user',
      entityId: admin.id,
      action: 'updated',
      from: { firstName: admin.firstName, surname: admin.surname },
      to: names,
    });
  });
  return getFirm(ctx, { id: body.firmId });
}

/**
 * Deletes a firm whose lawyers have no active case (else 400 hasActiveCases): the firm, its
 * lawyers and every account of the firm (admins and lawyers) are soft-deleted and their sessions
 * end. Applications, loans and audit events that name them stay readable.
 */
export async function deleteFirm({ db, actor: user }: ServiceContext, { id }: { id: number }): Promise<void> {
  await db.transaction(async (tx) => {
    const firm = await lockFirm(tx, id);
    // The lawyers are locked too: an application being created for one of them holds a
    // key-share lock on its row, so the check below waits for it and then sees it.
    const firmLawyers = await tx
      .select({ id: lawyers.id })
      .from(lawyers)
      .where(and(eq(lawyers.firmId, firm.id), isNull(lawyers.deletedAt)))
      .for('update');
    const lawyerIds = firmLawyers.map((l) => l.id);
    if (await lawyersHaveActiveCases(tx, lawyerIds)) throw new AppError(400, 'hasActiveCases');
    await tx
      .update(firms)
      .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(firms.id, firm.id));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'firm',
      entityId: firm.id,
      action: 'deleted',
      from: { firmName: firm.name },
      to: { deleted: true },
    });
    if (lawyerIds.length > 0) {
      await tx
        .update(lawyers)
        .set({ deletedAt: sql`now()` })
        .where(and(eq(lawyers.firmId, firm.id), isNull(lawyers.deletedAt)));
      for (const lawyerId of lawyerIds) {
        await recordAudit(tx, {
          actorUserId: user.id,
          entityType: 'lawyer',
          entityId: lawyerId,
          action: 'deleted',
          from: { firmId: firm.id },
          to: { deleted: true },
        });
      }
    }
    const accounts = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.firmId, firm.id), isNull(users.deletedAt)));
    await softDeleteAccounts(
      tx,
      accounts.map((a) => a.id),
      user.id,
    );
  });
}

/** The firm's lawyers, for staff and the firm's own admin. */
export async function listFirmLawyers(ctx: ServiceContext, { id, ...query }: { id: number } & Paging & { search?: string }) {
  await getFirm(ctx, { id });
  return listLawyersOfFirm(ctx, id, query);
}

/**
 * Loan totals of the firm (its lawyers' applications): credit offered, drawdowns that use credit,
 * how many loans, and the latest signing (a loan is created when the client signs).
 */
export async function getFirmLoansAggregate(ctx: ServiceContext, { id }: { id: number }) {
  const { db } = ctx;
  await getFirm(ctx, { id });
  const statuses = sql.join(
    creditUsingDrawdownStatuses.map((s) => sql`${s}`),
    sql`, `,
  );
  const [row] = await queryRows<{
    loansSum: number;
    totalDrawdowns: number;
    loansCount: number;
    dateCustomerAccepted: Date | string | null;
  }>(
    db,
    sql`select coalesce(sum(lo.amount_pence), 0)::float8 / 100 as "loansSum",
          coalesce(sum(used.pence), 0)::float8 / 100 as "totalDrawdowns",
          count(lo.id)::int as "loansCount",
          max(lo.created_at) as "dateCustomerAccepted"
        from loans lo
        join applications a on a.id = lo.application_id
        join lawyers l on l.id = a.lawyer_id
        left join lateral (select sum(d.amount_pence) as pence from drawdowns d where d.loan_id = lo.id and d.status in (${statuses})) used on true
        where l.firm_id = ${id}`,
  );
  const date = row?.dateCustomerAccepted ?? null;
  return {
    loansSum: row?.loansSum ?? 0,
    totalDrawdowns: row?.totalDrawdowns ?? 0,
    loansCount: row?.loansCount ?? 0,
    dateCustomerAccepted: date === null ? null : new Date(date).toISOString(),
  };
}
