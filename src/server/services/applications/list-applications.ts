import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import { applications, clients } from '../../db/schema';
import { countAsTotal, pageLimit, pageOfCounted, pageSkip, pageWithTotal, searchCountLimit, totalUpTo } from '../../db/paging';
import * as applicationPolicy from '../../policies/applications';
import { ofFirmLawyers } from '../../policies/firm-lawyers';
import type { ServiceContext } from '../context';
import type { Database } from '../../db/connection';
import { keptTotal } from '../../db/record-totals';
import type { components } from '../../../shared/api/schema';
import { caseSearchCondition } from './case-search';
import { applicationAbilities } from './present-application';

export interface ApplicationFilter {
  page: number;
  pageSize: number;
  search?: string;
  status?: string;
  lawyerId?: number;
  customerId?: number;
  firmId?: number;
  /** Each item also says what the caller may do with it (the screens' links follow it). */
  abilities?: boolean;
}

type ApplicationList = components['schemas']['ApplicationList'];

/** The caller's scope first; the filters can only narrow it. */
function where(user: SessionUser, filter: ApplicationFilter): SQL | undefined {
  return and(
    applicationPolicy.scope(user),
    filter.status ? eq(applications.status, filter.status) : undefined,
    filter.lawyerId ? eq(applications.lawyerId, filter.lawyerId) : undefined,
    filter.customerId ? eq(applications.clientId, filter.customerId) : undefined,
    filter.firmId ? ofFirmLawyers(applications.lawyerId, filter.firmId) : undefined,
    caseSearchCondition(filter.search),
  );
}

/**
 * The statement of the total (docs/decisions.md, 372, 373): staff filtering by nothing but the
 * status read the maintained totals; everyone else counts the rows their condition selects, over
 * `applications` alone (a firm's scope and filter read the firm's lawyers as an array,
 * policies/firm-lawyers.ts; the search reads the application's own row, docs/decisions.md, 622,
 * 721), counted no further than `countLimit` rows when given (decision 722).
 */
function totalOfApplications(
  db: Database,
  actor: SessionUser,
  filter: ApplicationFilter,
  condition: SQL | undefined,
  countLimit: number | undefined,
) {
  const seesAll = applicationPolicy.scope(actor) === undefined;
  if (seesAll && !filter.lawyerId && !filter.customerId && !filter.firmId && countLimit === undefined)
    return keptTotal(db, 'application', filter.status ? [filter.status] : undefined);
  // A search counts no further than a thousand rows past the page (docs/decisions.md, 722).
  if (countLimit !== undefined)
    return totalUpTo(db, db.select({ id: applications.id }).from(applications).where(condition).$dynamic(), countLimit);
  return db.select({ total: countAsTotal() }).from(applications).where(condition);
}

/** A page of the applications the caller may see, newest first, and their total: one statement (db/paging.ts). */
export async function listApplications({ db, actor }: ServiceContext, filter: ApplicationFilter): Promise<ApplicationList> {
  const condition = where(actor, filter);
  const countLimit = caseSearchCondition(filter.search) ? searchCountLimit(filter) : undefined;
  const totalStatement = totalOfApplications(db, actor, filter, condition, countLimit);
  const { rows, total } = await pageWithTotal(db, filter, totalStatement, (figures) =>
    db
      .select({
        id: applications.id,
        lawyerId: applications.lawyerId,
        clientId: applications.clientId,
        name: clients.firstName,
        surname: clients.lastName,
        caseRef: applications.caseRef,
        startedAt: applications.startedAt,
        status: applications.status,
        kycAmlCheck: applications.kycAmlCheck,
        credidCheck: applications.credidCheck,
        repaymentVehicle: applications.repaymentVehicle,
        independentAdvice: applications.independentAdvice,
        figures,
      })
      .from(applications)
      .innerJoin(clients, eq(clients.id, applications.clientId))
      .where(condition)
      .orderBy(desc(applications.startedAt), desc(applications.id))
      .limit(pageLimit(filter))
      .offset(pageSkip(filter)),
  );
  const items = rows.map(
    ({ startedAt, status, clientId, kycAmlCheck, credidCheck, repaymentVehicle, independentAdvice, ...row }) => ({
      ...row,
      startDate: startedAt.toISOString(),
      status: status as ApplicationList['items'][number]['status'],
      // What the list offers for each (open the wizard or the details) is the server's word.
      ...(filter.abilities
        ? {
            abilities: applicationAbilities(actor, {
              status,
              lawyerId: row.lawyerId,
              clientId,
              kycAmlCheck,
              credidCheck,
              repaymentVehicle,
              independentAdvice,
            }),
          }
        : {}),
    }),
  );
  return pageOfCounted(items, total, filter, countLimit);
}
