import { eq, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../db/connection';
import { clients, users } from '../db/schema';
import type { SessionUser } from '../auth/sessions';
import { AppError } from '../http/app-error';
import type { ServiceContext } from './context';
import * as applicationPolicy from '../policies/applications';
import { emailSchema } from '../../shared/schemas/account';
import { clientUpdateSchema } from '../../shared/schemas/administration';
import * as v from 'valibot';
import { requestPasswordReset, type RequestMeta } from './accounts';
import { activeCase } from '../db/active-case';
import { searchPattern } from '../db/like';
import { pageClause, type Paging } from '../db/paging';
import { recordAudit } from './audit';
import { parseForm } from './managed-accounts';

/** The applications the caller reaches (the one application scope), as a raw query's condition. */
const inScope = (user: SessionUser): SQL => applicationPolicy.scope(user) ?? sql`true`;

interface ClientRow {
  id: number;
  applicationId: number;
  email: string;
  firstName: string;
  lastName: string;
  birthDay: string | null;
  contactNumber: string | null;
  status: string;
  activeCases: number;
}

/**
 * Clients are derived from applications: every client with an application the caller reaches,
 * in any status (docs/decisions.md: which applications make a client). Each carries one application (an active one
 * first, else the newest) and the number of their active cases; with `clientId`, only that
 * client's applications are read. Aliases: pc (per client), c (clients), u (their account).
 */
function perClient(user: SessionUser, clientId?: number): SQL {
  // One client (getClient): only their applications, on applications_client_id_idx.
  const onlyClient = clientId === undefined ? sql`` : sql` and applications.client_id = ${clientId}`;
  return sql`with visible as (
      select applications.id, applications.client_id, applications.status, applications.started_at, ${activeCase('applications')} as active
      from applications join lawyers on lawyers.id = applications.lawyer_id
      where ${inScope(user)}${onlyClient}
    ), pc as (
      select client_id,
        count(*) filter (where active)::int as active_cases,
        (array_agg(id order by active desc, started_at desc, id desc))[1] as application_id,
        (array_agg(status order by active desc, started_at desc, id desc))[1] as status
      from visible group by client_id
    )`;
}

const columns = sql`c.id, pc.application_id as "applicationId", u.email, c.first_name as "firstName", c.last_name as "lastName",
  to_char(c.birth_date, 'YYYY-MM-DD') as "birthDay", c.contact_number as "contactNumber", pc.status, pc.active_cases as "activeCases"`;
const from = sql`from pc join clients c on c.id = pc.client_id join users u on u.id = c.user_id`;

function where(search: string | undefined): SQL {
  const pattern = searchPattern(search);
  return pattern
    ? sql`c.deleted_at is null and (c.first_name ilike ${pattern} or c.last_name ilike ${pattern} or (c.first_name || ' ' || c.last_name) ilike ${pattern} or u.email ilike ${pattern} or c.contact_number ilike ${pattern})`
    : sql`c.deleted_at is null`;
}

/** A page of the caller's clients (newest first) and the count with active cases; two queries. */
export async function listClients({ db, actor: user }: ServiceContext, query: Paging & { search?: string }) {
  const condition = where(query.search);
  const [items, [counts]] = await Promise.all([
    queryRows<ClientRow>(
      db,
      sql`${perClient(user)} select ${columns} ${from} where ${condition} order by c.id desc ${pageClause(query)}`,
    ),
    queryRows<{ total: number; withActiveCases: number }>(
      db,
      sql`${perClient(user)} select count(*)::int as total, count(*) filter (where pc.active_cases > 0)::int as "withActiveCases" ${from} where ${condition}`,
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

/** One client the caller reaches through an application; else 404. */
export async function getClient({ db, actor: user }: ServiceContext, { id }: { id: number }) {
  const [row] = await queryRows<ClientRow>(
    db,
    sql`${perClient(user, id)} select ${columns} ${from} where c.id = ${id} and c.deleted_at is null`,
  );
  if (!row) throw AppError.notFound();
  return row;
}

/** The client of an application the caller reaches; 404 otherwise. */
async function clientOfApplication(db: Database, user: SessionUser, applicationId: number): Promise<number> {
  const [row] = await queryRows<{ clientId: number }>(
    db,
    sql`select applications.client_id as "clientId" from applications join lawyers on lawyers.id = applications.lawyer_id
        join clients c on c.id = applications.client_id
        where applications.id = ${applicationId} and c.deleted_at is null and ${inScope(user)}`,
  );
  if (!row) throw AppError.notFound();
  return row.clientId;
}

/**
 * Changes a client's names, phone number and date of birth (the spec's update sends the
 * applicationId). The email is read-only. The account's names follow, so the session shows them.
 */
export async function updateClient(
  ctx: ServiceContext,
  body: { applicationId: number; firstName?: string; lastName?: string; birthDay?: string | null; contactNumber?: string },
) {
  const { db, actor: user } = ctx;
  const input = parseForm(clientUpdateSchema, body);
  const clientId = await clientOfApplication(db, user, body.applicationId);
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(clients).where(eq(clients.id, clientId)).for('update');
    if (!before) throw AppError.notFound();
    const changes = {
      ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
      ...(input.lastName !== undefined ? { lastName: input.lastName } : {}),
      ...(input.contactNumber !== undefined ? { contactNumber: input.contactNumber } : {}),
      ...(input.birthDay !== undefined ? { birthDate: input.birthDay } : {}),
    };
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(clients)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(clients.id, clientId));
    if (input.firstName !== undefined || input.lastName !== undefined) {
      await tx
        .update(users)
        .set({
          ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
          ...(input.lastName !== undefined ? { surname: input.lastName } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, before.userId));
    }
    const previous = Object.fromEntries(Object.keys(changes).map((key) => [key, before[key as keyof typeof before]]));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'client',
      entityId: clientId,
      action: 'updated',
      from: previous,
      to: changes,
    });
  });
  return getClient(ctx, { id: clientId });
}

/**
 * Sends a client the password reset email. The email must belong to a client the caller reaches
 * (else 404); the reset itself is the sign-in screen's (its link, its rate limits: 429).
 */
export async function resetClientPassword(
  { db, config, actor: user }: ServiceContext,
  { meta, ...body }: { email: string; meta: RequestMeta },
): Promise<void> {
  const parsed = v.safeParse(emailSchema, body.email);
  if (!parsed.success) throw AppError.ruleFailed({ email: parsed.issues[0]?.message ?? 'email' });
  const email = parsed.output;
  const [client] = await queryRows<{ id: number; userId: number }>(
    db,
    sql`select c.id, c.user_id as "userId" from clients c join users u on u.id = c.user_id
        where u.email = ${email} and u.deleted_at is null and c.deleted_at is null and u.role = 'customer'
          and exists (select 1 from applications join lawyers on lawyers.id = applications.lawyer_id where applications.client_id = c.id and ${inScope(user)})
        limit 1`,
  );
  if (!client) throw AppError.notFound();
  await requestPasswordReset(db, config, { login: email }, meta);
  await recordAudit(db, {
    actorUserId: user.id,
    entityType: 'client',
    entityId: client.id,
    action: 'passwordResetSent',
    to: { userId: client.userId },
  });
}
