/**
 * Grows a portal database to the size the API benchmark measures at (scripts/bench-api.ts): by
 * default 100,000 applications, each with its journey (five steps), of 100,000 clients and 200
 * lawyers in 20 firms, 20,000 loans and 100,000 drawdowns. Bulk inserts (generate_series), not the
 * API. The demo lawyer and the demo client get a share, so their lists are measured at scale too.
 * It adds to what is there (the demo data), never deletes. It names only columns every version of
 * the schema since the benchmark began has had (a column kept by a trigger fills itself), so it grows
 * the database of an older build too (BENCH_SERVER_DIR, docs/decisions.md (602)).
 *
 *   npx tsx scripts/bench-api-seed.ts [dataDir]            # the embedded database in dataDir (no server running)
 *   DATABASE_URL=postgres://… npx tsx scripts/bench-api-seed.ts
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { EMBEDDED_DATABASE_FOLDER, openDatabase, pgliteExtensions, queryRows, type Database } from '../src/server/db/connection';
import { lockDataDir } from '../src/server/db/data-dir-lock';
import { validPersonal, validSteps } from '../tests/fixtures/journeys';

export interface GrowCounts {
  applications: number;
  loans: number;
  drawdowns: number;
}

export const defaultCounts: GrowCounts = {
  applications: Number(process.env.BENCH_APPLICATIONS ?? 100_000),
  loans: Number(process.env.BENCH_LOANS ?? 20_000),
  drawdowns: Number(process.env.BENCH_DRAWDOWNS ?? 100_000),
};

const FIRMS = 20;
const LAWYERS = 200;
const FIRST_NAMES = [
  'Priya',
  'Tom',
  'Anna',
  'James',
  'Olivia',
  'Mohammed',
  'Sara',
  'David',
  'Grace',
  'Oliver',
  'Emily',
  'Daniel',
  'Chloe',
  'Samuel',
  'Isla',
  'Lucas',
  'Amira',
  'Jack',
  'Ruth',
  'Harry',
  'Leah',
  'Noah',
  'Freya',
  'Adam',
  'Zara',
  'Ethan',
  'Megan',
  'Ryan',
  'Hannah',
  'Kofi',
  'Nina',
  'Owen',
  'Jade',
  'Leo',
  'Erin',
  'Max',
  'Maya',
  'Ben',
  'Iris',
  'Kai',
];
const LAST_NAMES = [
  'Shah',
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Robinson',
  'Wright',
  'Thompson',
  'Evans',
  'Walker',
  'White',
  'Roberts',
  'Green',
  'Hall',
  'Wood',
  'Jackson',
  'Clarke',
  'Khan',
  'Lewis',
  'Harris',
  'Martin',
  'Cooper',
  'King',
  'Lee',
  'Baker',
  'Harrison',
  'Morgan',
  'Allen',
  'James',
  'Scott',
  'Phillips',
  'Watson',
  'Davis',
  'Parker',
  'Price',
  'Bennett',
  'Young',
  'Griffiths',
  'Mitchell',
  'Kelly',
  'Cook',
  'Carter',
  'Richardson',
  'Bailey',
  'Collins',
  'Bell',
  'Shaw',
  'Murphy',
  'Miller',
  'Cox',
  'Richards',
  'Khan',
  'Marshall',
  'Anderson',
  'Simpson',
];

const textArray = (values: string[]) => sql.raw(`array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]`);

/**
 * The database a server under test made and migrated (its data folder, or PostgreSQL), opened without
 * applying this checkout's migrations: the server may be an older build, whose schema is its own.
 */
export async function openForGrowth(options: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<{ db: Database; close: () => Promise<void> }> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 1 });
    return { db: drizzlePg(pool) as unknown as Database, close: () => pool.end() };
  }
  const lock = lockDataDir(options.dataDir);
  try {
    const client = await PGlite.create(path.join(options.dataDir, EMBEDDED_DATABASE_FOLDER), {
      extensions: pgliteExtensions,
    });
    const close = async () => {
      try {
        await client.close();
      } finally {
        lock.release();
      }
    };
    return { db: drizzlePglite({ client }) as unknown as Database, close };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Adds the rows; answers how long it took in seconds. */
export async function growData(db: Database, counts: GrowCounts = defaultCounts): Promise<number> {
  const started = performance.now();
  const [demo] = await queryRows<{ lawyer_id: number | null; client_id: number | null; run: number }>(
    db,
    sql`select (select l.id from lawyers l join users u on u.id = l.user_id where u.email = 'lawyer@demo.test') lawyer_id,
               (select c.id from clients c join users u on u.id = c.user_id where u.email = 'client@demo.test') client_id,
               (select count(*) from firms)::int run`,
  );
  // A tag per run, so a second run adds more instead of colliding with the first's emails.
  const tag = `b${demo!.run}`;
  const firstFirm = sql`(select coalesce(max(id), 0) from firms)`;
  await db.execute(sql`insert into firms (name) select 'Bench firm ' || i from generate_series(1, ${FIRMS}) i`);
  await db.execute(sql`insert into users (email, role, first_name, surname, status, firm_id)
    select ${tag} || '-lawyer' || i || '@bench.test', 'lawyer', 'Lee', 'Lawyer ' || i, 'active', f.first + i % ${FIRMS}
    from generate_series(1, ${LAWYERS}) i, (select ${firstFirm} - ${FIRMS} + 1 as first) f`);
  await db.execute(sql`insert into lawyers (user_id, firm_id)
    select id, firm_id from users where email like ${`${tag}-lawyer%`} order by id`);
  await db.execute(sql`insert into users (email, role, first_name, surname, status)
    select ${tag} || '-client' || i || '@bench.test', 'customer',
      (${textArray(FIRST_NAMES)})[1 + i % ${FIRST_NAMES.length}],
      (${textArray(LAST_NAMES)})[1 + (i / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}], 'active'
    from generate_series(1, ${counts.applications}) i`);
  await db.execute(sql`insert into clients (user_id, first_name, last_name)
    select id, first_name, surname from users where email like ${`${tag}-client%`} order by id`);
  // One application per client; every 100th is the demo lawyer's, every 20,000th the demo client's.
  // The first `loans` applications are approved (they get the loans); the rest spread over the
  // other statuses. Started over the last 1,000 hours.
  const statuses = textArray(['incomplete', 'created', 'submitted', 'providerAccepted', 'providerApproved', 'customerApproved']);
  await db.execute(sql`insert into applications (lawyer_id, client_id, status, case_ref, loan_amount_pence, started_at)
    select case when ${demo!.lawyer_id}::int is not null and n % 100 = 0 then ${demo!.lawyer_id}::int else lw.first + n % ${LAWYERS} end,
      case when ${demo!.client_id}::int is not null and n % 20000 = 1 then ${demo!.client_id}::int else c.id end,
      case when n <= ${counts.loans} then 'approved' else (${statuses})[1 + n % 6] end,
      'BEN-' || to_char(n, 'FM000000'), 5000000, now() - (n % 1000) * interval '1 hour' - n * interval '1 millisecond'
    from (select id, row_number() over (order by id) n from clients where user_id in
            (select id from users where email like ${`${tag}-client%`})) c,
         (select min(l.id) first from lawyers l join users u on u.id = l.user_id where u.email like ${`${tag}-lawyer%`}) lw
    order by n`);
  const [range] = await queryRows<{ first: number }>(
    db,
    sql`select max(id) - ${counts.applications} + 1 as first from applications`,
  );
  const first = range!.first;
  // The journey: each application's five steps, as the lawyer saved them.
  const steps: [string, unknown][] = [
    ['personal', validPersonal('bench@bench.test')],
    ['case', validSteps.case],
    ['financial', validSteps.financial],
    ['asset', validSteps.asset],
    ['independent', validSteps.independent],
  ];
  for (const [step, data] of steps) {
    await db.execute(sql`insert into application_steps (application_id, step, data, version)
      select id, ${step}, ${JSON.stringify(data)}::jsonb, 1 from applications where id >= ${first}`);
  }
  await db.execute(sql`insert into loans (application_id, amount_pence, status, created_at)
    select a.id, 5000000 + (a.id % 7) * 100001, case when a.id % 10 = 0 then 'blocked' else 'open' end, a.started_at
    from applications a where a.id >= ${first} and a.status = 'approved' order by a.id`);
  const [loanRange] = await queryRows<{ first: number; n: number }>(
    db,
    sql`select min(l.id) first, count(*)::int n from loans l where l.application_id >= ${first}`,
  );
  await db.execute(sql`insert into drawdowns (loan_id, status, amount_pence, invoice_number, stage_of_case, material_changes,
      next_hearing_date, final_order_date, reaply_assets, expected_repayment_date, lawyer_declarations, created_at)
    select ${loanRange!.first}::int + i % ${Math.max(1, loanRange!.n)},
      (array['requested','providerApproved','providerRejected','customerApproved','customerRejected','paid'])[1 + i % 6],
      10000 + (i % 97) * 1001, 'INV-' || i, 'Disclosure', false, '01/03/2027', '01/09/2027', 'House', '31/12/2027',
      '{"noMaterialChangeLegal":true}'::jsonb, now() - (i % 300) * interval '1 day'
    from generate_series(1, ${counts.drawdowns}) i`);
  // Vacuumed and analysed, as a database of this size is in its steady state: otherwise autovacuum
  // works through the new rows during the first calls measured, and index-only scans read the heap.
  await db.execute(sql`vacuum analyze`);
  return (performance.now() - started) / 1000;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.argv[2] ?? './data' });
  try {
    const seconds = await growData(handle.db);
    console.log(
      `Added ${defaultCounts.applications} applications, ${defaultCounts.loans} loans, ${defaultCounts.drawdowns} drawdowns in ${seconds.toFixed(1)} s`,
    );
  } finally {
    await handle.close();
  }
}
