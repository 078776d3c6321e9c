/**
 * The list, search and overview calls the API benchmark measures (scripts/bench-api.ts), as the
 * services the routes call, for the demo staff, firm, lawyer and client of a database grown by
 * scripts/bench-api-seed.ts. Shared by the plans' script (scripts/bench-api-explain.ts) and, run
 * on its own, a timing of each call in the database as the server opens it (its prepared
 * statements and queue included; docs/decisions.md 727), one call after another with no load:
 *
 *   npx tsx scripts/bench-api-calls.ts ./data          # the embedded database in ./data (no server on it)
 *   DATABASE_URL=postgres://… npx tsx scripts/bench-api-calls.ts
 *   BENCH_CALLS='firm' BENCH_CALL_RUNS=300 …           # only the calls whose name matches; runs of each
 *
 * It prints each call's mean time over the runs, after 30 runs thrown away (the plans made and kept).
 */
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import * as schema from '../src/server/db/schema';
import { openDatabase, type Database } from '../src/server/db/connection';
import { loadSessionUser, type SessionUser } from '../src/server/auth/sessions';
import { demoAccounts } from '../src/server/seed/demo-accounts';
import type { ServiceContext } from '../src/server/services/context';
import { listApplications } from '../src/server/services/applications/list-applications';
import { listLoans } from '../src/server/services/loans/list-loans';
import { getLoansAggregate } from '../src/server/services/loans/get-loans-aggregate';
import { listDrawdowns } from '../src/server/services/drawdowns/list-drawdowns';
import { getDrawdownsAggregate } from '../src/server/services/drawdowns/get-drawdowns-aggregate';

export type BenchmarkCall = [name: string, call: () => Promise<unknown>];

async function actorOf(db: Database, email: string): Promise<SessionUser> {
  const [user] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email));
  const actor = user && (await loadSessionUser(db, user.id));
  if (!actor) throw new Error(`no account ${email}: is this the demo data grown by scripts/bench-api-seed.ts?`);
  return actor;
}

/** The calls, by name, on this database. */
export async function benchmarkCalls(db: Database): Promise<BenchmarkCall[]> {
  const staff = await actorOf(db, demoAccounts.admin);
  const firm = await actorOf(db, demoAccounts.firm);
  const lawyer = await actorOf(db, demoAccounts.lawyer);
  const client = await actorOf(db, demoAccounts.customer);
  const ctx = (actor: SessionUser) => ({ db, actor }) as unknown as ServiceContext;
  const page = { page: 1, pageSize: 10 };
  return [
    ['applications list (staff)', () => listApplications(ctx(staff), page)],
    ['applications list (firm)', () => listApplications(ctx(firm), page)],
    ['applications list (lawyer)', () => listApplications(ctx(lawyer), { ...page, abilities: true })],
    ['applications list (client)', () => listApplications(ctx(client), { ...page, abilities: true })],
    ['applications list, firm filter (staff)', () => listApplications(ctx(staff), { ...page, firmId: firm.firmId ?? 0 })],
    ['applications list, status submitted (staff)', () => listApplications(ctx(staff), { ...page, status: 'submitted' })],
    ['search "shah", page 3 (staff)', () => listApplications(ctx(staff), { page: 3, pageSize: 10, search: 'shah' })],
    ['search "ben-0123" (staff)', () => listApplications(ctx(staff), { ...page, search: 'ben-0123' })],
    ['search "priya shah" (staff)', () => listApplications(ctx(staff), { ...page, search: 'priya shah' })],
    ['search "sh" (staff)', () => listApplications(ctx(staff), { ...page, search: 'sh' })],
    ['search "a" (staff)', () => listApplications(ctx(staff), { ...page, search: 'a' })],
    ['search "priya s" (staff)', () => listApplications(ctx(staff), { ...page, search: 'priya s' })],
    ['applications list, page past the end (lawyer)', () => listApplications(ctx(lawyer), { page: 1000, pageSize: 10 })],
    ['loans list (staff)', () => listLoans(ctx(staff), page)],
    ['loans list (lawyer)', () => listLoans(ctx(lawyer), page)],
    ['loans list (firm)', () => listLoans(ctx(firm), page)],
    ['loans list, status blocked (lawyer)', () => listLoans(ctx(lawyer), { ...page, status: 'blocked' })],
    ['loans search "sh" (staff)', () => listLoans(ctx(staff), { ...page, search: 'sh' })],
    ['loans search "shah" (staff)', () => listLoans(ctx(staff), { ...page, search: 'shah' })],
    ['loans overview (staff)', () => getLoansAggregate(ctx(staff), {})],
    ['loans overview (lawyer)', () => getLoansAggregate(ctx(lawyer), {})],
    ['drawdowns list (staff)', () => listDrawdowns(ctx(staff), page)],
    ['drawdowns list (lawyer)', () => listDrawdowns(ctx(lawyer), page)],
    ['drawdowns list (firm)', () => listDrawdowns(ctx(firm), page)],
    ['drawdowns list, status requested (lawyer)', () => listDrawdowns(ctx(lawyer), { ...page, status: 'requested' })],
    ['drawdowns overview (staff)', () => getDrawdownsAggregate(ctx(staff), {})],
    ['drawdowns overview (client)', () => getDrawdownsAggregate(ctx(client), {})],
  ];
}

/** Each call's mean time in ms over `runs` runs, after 30 thrown away, in the calls' order; `onTimed` as each ends. */
export async function timeCalls(
  db: Database,
  runs: number,
  only?: RegExp,
  onTimed: (name: string, ms: number) => void = () => undefined,
): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  for (const [name, call] of await benchmarkCalls(db)) {
    if (only && !only.test(name)) continue;
    for (let i = 0; i < 30; i++) await call();
    const started = performance.now();
    for (let i = 0; i < runs; i++) await call();
    times.set(name, (performance.now() - started) / runs);
    onTimed(name, times.get(name)!);
  }
  return times;
}

async function main(): Promise<void> {
  const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.argv[2] ?? './data' });
  const only = process.env.BENCH_CALLS ? new RegExp(process.env.BENCH_CALLS) : undefined;
  const runs = Number(process.env.BENCH_CALL_RUNS ?? 300);
  try {
    console.log(
      `Each call ${runs} times in a row, after 30 thrown away · ${handle.kind === 'postgres' ? 'PostgreSQL' : 'embedded (PGlite)'}`,
    );
    await timeCalls(handle.db, runs, only, (name, ms) =>
      console.log(`${name.padEnd(48)} ${ms.toFixed(2).padStart(7)} ms a call`),
    );
  } finally {
    await handle.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
