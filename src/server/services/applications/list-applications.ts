import { and, desc, eq, type SQL } from 'drizzle-orm';
import { scopeActorOf, scopeValuesOf, type ScopeActor, type ScopeValues } from '../../policies/scope-values';
import { applications, clients } from '../../db/schema';
import {
  countAsTotal,
  figuresColumn,
  shapedPage,
  pageLimit,
  pageOfCounted,
  pageSkip,
  searchCountLimit,
  totalUpTo,
  type Paging,
} from '../../db/paging';
import type { StatementValues } from '../../db/shaped-statements';
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
function where(user: ScopeActor, filter: Omit<ApplicationFilter, keyof Paging>): SQL | undefined {
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
  actor: ScopeActor,
  filter: Omit<ApplicationFilter, keyof Paging>,
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

/** What a call puts in its statement: the caller's ids and the filters' values; absent is undefined. */
interface ApplicationValues extends StatementValues, ScopeValues {
  status?: string;
  filterLawyerId?: number;
  filterCustomerId?: number;
  filterFirmId?: number;
}

function valuesOf(actor: ScopeActor, filter: ApplicationFilter): ApplicationValues {
  return {
    ...scopeValuesOf(actor),
    status: filter.status || undefined,
    filterLawyerId: filter.lawyerId || undefined,
    filterCustomerId: filter.customerId || undefined,
    filterFirmId: filter.firmId || undefined,
  };
}

/**
 * The statement of a page of applications and its total, newest first, written from the caller's
 * role, the page and the search, and from `values` alone (db/shaped-statements.ts).
 */
function pageStatement(db: Database, role: ScopeActor['role'], values: ApplicationValues, paging: Paging, search?: string) {
  const actor = scopeActorOf(role, values);
  const filter = {
    status: values.status,
    lawyerId: values.filterLawyerId,
    customerId: values.filterCustomerId,
    firmId: values.filterFirmId,
    search,
  };
  const condition = where(actor, filter);
  const countLimit = caseSearchCondition(search) ? searchCountLimit(paging) : undefined;
  return db
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
      figures: figuresColumn<{ total: number }>(totalOfApplications(db, actor, filter, condition, countLimit)),
    })
    .from(applications)
    .innerJoin(clients, eq(clients.id, applications.clientId))
    .where(condition)
    .orderBy(desc(applications.startedAt), desc(applications.id))
    .limit(pageLimit(paging))
    .offset(pageSkip(paging));
}

/**
 * A page of the applications the caller may see, newest first, and their total: one statement
 * (db/paging.ts), written once per shape (db/shaped-statements.ts) but for a search, whose words
 * make a text of their own.
 */
export async function listApplications({ db, actor }: ServiceContext, filter: ApplicationFilter): Promise<ApplicationList> {
  const values = valuesOf(actor, filter);
  const searches = caseSearchCondition(filter.search) !== undefined;
  const countLimit = searches ? searchCountLimit(filter) : undefined;
  const { rows, total } = await shapedPage(db, filter, {
    shape: `applications ${actor.role}`,
    values,
    searches,
    write: (written) => pageStatement(db, actor.role, written, filter, filter.search),
    totalAlone: () => totalOfApplications(db, actor, filter, where(actor, filter), countLimit),
  });
  // Each item is written field by field: a rest pattern over every row cost more than the rest of the mapping.
  const items = rows.map((row) => ({
    id: row.id,
    lawyerId: row.lawyerId,
    name: row.name,
    surname: row.surname,
    caseRef: row.caseRef,
    startDate: row.startedAt.toISOString(),
    status: row.status as ApplicationList['items'][number]['status'],
    // What the list offers for each (open the wizard or the details) is the server's word.
    ...(filter.abilities ? { abilities: applicationAbilities(actor, row) } : {}),
  }));
  return pageOfCounted(items, total, filter, countLimit);
}
