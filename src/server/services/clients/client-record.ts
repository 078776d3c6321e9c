import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/connection';
import { type SessionUser } from '../../auth/sessions';
import { AppError } from '../../errors/app-error';
import * as clientPolicy from '../../policies/clients';
import { activeCase } from '../../db/active-case';
import { searchPattern } from '../../db/like';

/** The applications the caller reaches (the one application scope), as a raw query's condition. */
/** The caller's reach over `applications` joined to `lawyers` (the clients policy's scope). */
export const inScope = (user: SessionUser): SQL => clientPolicy.scope(user) ?? sql`true`;
export interface ClientRow {
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
export function perClient(user: SessionUser, clientId?: number): SQL {
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

export const clientColumns = sql`c.id, pc.application_id as "applicationId", u.email, c.first_name as "firstName", c.last_name as "lastName",
  to_char(c.birth_date, 'YYYY-MM-DD') as "birthDay", c.contact_number as "contactNumber", pc.status, pc.active_cases as "activeCases"`;
export const clientFrom = sql`from pc join clients c on c.id = pc.client_id join users u on u.id = c.user_id`;

export function clientCondition(search: string | undefined): SQL {
  const pattern = searchPattern(search);
  return pattern
    ? sql`c.deleted_at is null and (c.first_name ilike ${pattern} or c.last_name ilike ${pattern} or (c.first_name || ' ' || c.last_name) ilike ${pattern} or u.email ilike ${pattern} or c.contact_number ilike ${pattern})`
    : sql`c.deleted_at is null`;
}

/** The client of an application the caller reaches; 404 otherwise. */
export async function clientOfApplication(db: Database, user: SessionUser, applicationId: number): Promise<number> {
  const [row] = await queryRows<{ clientId: number }>(
    db,
    sql`select applications.client_id as "clientId" from applications join lawyers on lawyers.id = applications.lawyer_id
        join clients c on c.id = applications.client_id
        where applications.id = ${applicationId} and c.deleted_at is null and ${inScope(user)}`,
  );
  if (!row) throw AppError.notFound();
  return row.clientId;
}
