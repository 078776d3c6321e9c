/**
 * Where the API benchmark's calls spend their time in the database (docs/decisions.md, 370): calls the list
 * and overview services the benchmark measures (scripts/bench-api.ts) as the demo staff, firm,
 * lawyer and client, catches every statement they send, and prints `EXPLAIN (ANALYZE, BUFFERS)` of
 * each with the same parameters (so the plan is the custom one the call gets). Run it on a database
 * grown by scripts/bench-api-seed.ts, with no server using it:
 *
 *   npx tsx scripts/bench-api-explain.ts ./data            # the embedded database in ./data
 *   DATABASE_URL=postgres://… npx tsx scripts/bench-api-explain.ts
 *   EXPLAIN_FULL=1 …                                       # the whole plans, not only the times
 *   EXPLAIN_CALLS='loans|drawdowns' …                      # only the calls whose name matches
 *
 * Each call's line gives its statements and their planning and execution time in the database.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import * as schema from '../src/server/db/schema';
import type { Database } from '../src/server/db/connection';
import { pgliteExtensions } from '../src/server/db/connection';
import { loadSessionUser, type SessionUser } from '../src/server/auth/sessions';
import { demoAccounts } from '../src/server/seed/demo-accounts';
import type { ServiceContext } from '../src/server/services/context';
import { listApplications } from '../src/server/services/applications/list-applications';
import { listLoans } from '../src/server/services/loans/list-loans';
import { getLoansAggregate } from '../src/server/services/loans/get-loans-aggregate';
import { listDrawdowns } from '../src/server/services/drawdowns/list-drawdowns';
import { getDrawdownsAggregate } from '../src/server/services/drawdowns/get-drawdowns-aggregate';

interface Caught {
  query: string;
  params: unknown[];
}

type Run = (query: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

async function open(): Promise<{ db: Database; caught: Caught[]; run: Run; close: () => Promise<void>; kind: string }> {
  const caught: Caught[] = [];
  const logger = { logQuery: (query: string, params: unknown[]) => caught.push({ query, params }) };
  const url = process.env.DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const db = drizzlePg({ client: pool, schema, logger }) as unknown as Database;
    const run: Run = async (query, params) => pool.query(query, params);
    return { db, caught, run, close: () => pool.end(), kind: 'PostgreSQL' };
  }
  const dataDir = process.argv[2] ?? './data';
  const client = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: pgliteExtensions });
  const db = drizzlePglite({ client, schema, logger }) as unknown as Database;
  const run: Run = async (query, params) => client.query(query, params) as Promise<{ rows: Record<string, unknown>[] }>;
  return { db, caught, run, close: () => client.close(), kind: 'embedded (PGlite)' };
}

async function actorOf(db: Database, email: string): Promise<SessionUser> {
  const [user] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email));
  const actor = user && (await loadSessionUser(db, user.id));
  if (!actor) throw new Error(`no account ${email}: is this the demo data grown by scripts/bench-api-seed.ts?`);
  return actor;
}

/** The milliseconds of an EXPLAIN line such as `Execution Time: 1.234 ms` (0 when absent). */
const msOf = (line: string): number => Number(/([\d.]+) ms/.exec(line)?.[1] ?? 0);

async function main(): Promise<void> {
  const { db, caught, run, close, kind } = await open();
  const full = process.env.EXPLAIN_FULL === '1';
  try {
    const staff = await actorOf(db, demoAccounts.admin);
    const firm = await actorOf(db, demoAccounts.firm);
    const lawyer = await actorOf(db, demoAccounts.lawyer);
    const client = await actorOf(db, demoAccounts.customer);
    const ctx = (actor: SessionUser) => ({ db, actor }) as unknown as ServiceContext;
    const page = { page: 1, pageSize: 10 };
    const calls: [string, () => Promise<unknown>][] = [
      ['applications list (staff)', () => listApplications(ctx(staff), page)],
      ['applications list (firm)', () => listApplications(ctx(firm), page)],
      ['applications list (lawyer)', () => listApplications(ctx(lawyer), { ...page, abilities: true })],
      ['applications list (client)', () => listApplications(ctx(client), { ...page, abilities: true })],
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
    console.log(`EXPLAIN (ANALYZE, BUFFERS) of the benchmark's calls · ${kind}`);
    const only = process.env.EXPLAIN_CALLS ? new RegExp(process.env.EXPLAIN_CALLS) : undefined;
    for (const [name, call] of calls) {
      if (only && !only.test(name)) continue;
      caught.length = 0;
      await call();
      const statements = [...caught];
      const out: string[] = [];
      let databaseMs = 0;
      for (const { query, params } of statements) {
        const { rows } = await run(`explain (analyze, buffers) ${query}`, params);
        const lines = rows.map((r) => String(Object.values(r)[0]));
        const time = lines.find((l) => l.startsWith('Execution Time')) ?? '';
        const planning = lines.find((l) => l.startsWith('Planning Time')) ?? '';
        const scans = lines
          .filter((l) => /Seq Scan|Index Scan|Index Only Scan|Bitmap Index Scan/.test(l))
          .map((l) =>
            l
              .trim()
              .replace(/\s+\(cost=[^)]*\)/, '')
              .replace(/\(actual time=[\d.]+\.\./, '(… '),
          )
          .map((l) => `      ${l}`);
        databaseMs += msOf(planning) + msOf(time);
        out.push(`   ${query.slice(0, 110).replace(/\s+/g, ' ')}…  [${params.length} params]`);
        out.push(`      ${planning} · ${time}`);
        out.push(...(full ? lines.map((l) => `      ${l}`) : scans));
      }
      // The database's time for the call: every statement's planning and execution, one after another.
      console.log(`\n── ${name}: ${statements.length} statement(s), ${databaseMs.toFixed(2)} ms in the database`);
      console.log(out.join('\n'));
    }
  } finally {
    await close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
