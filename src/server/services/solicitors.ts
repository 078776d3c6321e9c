import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../db/connection';
import { solicitors } from '../db/schema';
import { refuseDuplicate } from '../db/errors';
import { AppError } from '../http/app-error';
import type { ServiceContext } from './context';
import { solicitorCreateSchema, solicitorUpdateSchema, type SolicitorCreateInput } from '../../shared/schemas/administration';
import { activeCase } from '../db/active-case';
import { searchPattern } from '../db/like';
import { pageClause, type Paging } from '../db/paging';
import { recordAudit } from './audit';
import { parseForm } from './managed-accounts';

interface SolicitorRow {
  id: number;
  name: string;
  address: Record<string, string>;
  contactNumber: string;
  email: string;
  fee: number;
  deliveryMethod: string;
  state: 'active' | 'inactive';
  casesAmount: number;
}

/**
 * Active cases that name the solicitor (alias s) in their independent-advice step
 * (application_steps.data->>'solicitorId'), counted through the partial expression index on it.
 */
const casesOf = (s: string) => {
  const alias = sql.raw(s);
  return sql`select 1 from application_steps st join applications a on a.id = st.application_id
    where st.step = 'independent' and (st.data->>'solicitorId') = ${alias}.id::text and ${activeCase('a')}`;
};

const columns = sql`s.id, s.name, s.address, s.contact_number as "contactNumber", s.email, s.fee_pence::float8 / 100 as fee,
  s.delivery_method as "deliveryMethod", case when s.deleted_at is null then 'active' else 'inactive' end as state`;

function where(search: string | undefined): SQL {
  const pattern = searchPattern(search);
  return pattern
    ? sql`s.deleted_at is null and (s.name ilike ${pattern} or s.email ilike ${pattern} or s.contact_number ilike ${pattern} or s.address::text ilike ${pattern})`
    : sql`s.deleted_at is null`;
}

/**
 * A page of solicitors (by name) with each one's active cases, and the count of those with any;
 * the counts run on the page's rows only. Two queries in all.
 */
export async function listSolicitors({ db }: ServiceContext, query: Paging & { search?: string }) {
  const condition = where(query.search);
  const [items, [counts]] = await Promise.all([
    queryRows<SolicitorRow>(
      db,
      sql`with page as (select ${columns} from solicitors s where ${condition} order by s.name, s.id ${pageClause(query)})
          select s.*, (select count(*)::int from (${casesOf('s')}) c) as "casesAmount" from page s order by s.name, s.id`,
    ),
    queryRows<{ total: number; withActiveCases: number }>(
      db,
      sql`select count(*)::int as total, count(*) filter (where exists (${casesOf('s')}))::int as "withActiveCases" from solicitors s where ${condition}`,
    ),
  ]);
  return {
    items,
    total: counts?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
    withActiveCases: counts?.withActiveCases ?? 0,
  };
}

/**
 * One solicitor. A deleted one still reads (state 'inactive'): an application's independent step
 * keeps naming the solicitor it chose.
 */
export async function getSolicitor({ db }: ServiceContext, { id }: { id: number }) {
  const [row] = await queryRows<SolicitorRow>(
    db,
    sql`select ${columns}, (select count(*)::int from (${casesOf('s')}) c) as "casesAmount" from solicitors s where s.id = ${id}`,
  );
  if (!row) throw AppError.notFound();
  return row;
}

const toPence = (pounds: number) => Math.round(pounds * 100);

/** Refuses an email another live solicitor already has ('This address has already been used'). */
async function assertEmailFree(db: Database, email: string, exceptId?: number) {
  const [taken] = await queryRows<{ id: number }>(
    db,
    sql`select id from solicitors where lower(email) = ${email} and deleted_at is null ${exceptId ? sql`and id <> ${exceptId}` : sql``} limit 1`,
  );
  if (taken) throw AppError.validation({ email: 'addressUsed' });
}

export async function createSolicitor(ctx: ServiceContext, body: unknown) {
  const { db, actor: user } = ctx;
  const input: SolicitorCreateInput = parseForm(solicitorCreateSchema, body);
  const id = await refuseDuplicate({ email: 'addressUsed' }, () =>
    db.transaction(async (tx) => {
      await assertEmailFree(tx, input.email);
      const [row] = await tx
        .insert(solicitors)
        .values({
          name: input.name,
          address: input.address,
          contactNumber: input.contactNumber,
          email: input.email,
          feePence: toPence(input.fee),
          deliveryMethod: input.deliveryMethod,
        })
        .returning({ id: solicitors.id });
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'solicitor',
        entityId: row!.id,
        action: 'created',
        to: { ...input },
      });
      return row!.id;
    }),
  );
  return getSolicitor(ctx, { id });
}

/** The live solicitor row locked for a change; 404 otherwise. */
async function lockSolicitor(db: Database, id: number) {
  const [row] = await db
    .select()
    .from(solicitors)
    .where(and(eq(solicitors.id, id), isNull(solicitors.deletedAt)))
    .for('update');
  if (!row) throw AppError.notFound();
  return row;
}

/** Changes a solicitor; the email is read-only (the contract refuses it as unknownField). */
export async function updateSolicitor(ctx: ServiceContext, body: { solicitorId: number } & Record<string, unknown>) {
  const { db, actor: user } = ctx;
  const input = parseForm(solicitorUpdateSchema, body);
  await db.transaction(async (tx) => {
    const before = await lockSolicitor(tx, body.solicitorId);
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.address !== undefined ? { address: input.address } : {}),
      ...(input.contactNumber !== undefined ? { contactNumber: input.contactNumber } : {}),
      ...(input.fee !== undefined ? { feePence: toPence(input.fee) } : {}),
      ...(input.deliveryMethod !== undefined ? { deliveryMethod: input.deliveryMethod } : {}),
    };
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(solicitors)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(solicitors.id, before.id));
    const from = Object.fromEntries(Object.keys(changes).map((key) => [key, before[key as keyof typeof before]]));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'solicitor',
      entityId: before.id,
      action: 'updated',
      from,
      to: changes,
    });
  });
  return getSolicitor(ctx, { id: body.solicitorId });
}

/**
 * Deletes (soft) a solicitor no active case names; otherwise 400 hasActiveCases ('The solicitor
 * can't be deleted due to having active cases').
 */
export async function deleteSolicitor({ db, actor: user }: ServiceContext, { id }: { id: number }): Promise<void> {
  await db.transaction(async (tx) => {
    const solicitor = await lockSolicitor(tx, id);
    const [row] = await queryRows<{ active: boolean }>(
      tx,
      sql`select exists (${casesOf('s')}) as active from solicitors s where s.id = ${solicitor.id}`,
    );
    if (row?.active) throw new AppError(400, 'hasActiveCases');
    await tx
      .update(solicitors)
      .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(solicitors.id, solicitor.id));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'solicitor',
      entityId: solicitor.id,
      action: 'deleted',
      from: { name: solicitor.name },
      to: { deleted: true },
    });
  });
}
