/**
 * Loans and drawdowns at scale: the lists and overviews of each role, beside the applications list,
 * through the real Fastify app (in-process, no network) on 10,000 loans and 50,000 drawdowns; then
 * the plan of each query (an index, or a scan of a whole growing table?) and the database extract's
 * time and peak memory. It prints figures; it is not a test.
 *
 *   npx tsx scripts/bench-loans.ts                  # the embedded database (in memory)
 *   BENCH_DATABASE_URL=postgres://… npx tsx scripts/bench-loans.ts   # an empty PostgreSQL database
 */
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { hashPassword } from '../src/server/auth/passwords';
import { loadConfig } from '../src/server/config';
import { openDatabase, queryRows, type Database } from '../src/server/db/connection';

const LOANS = Number(process.env.BENCH_LOANS ?? 10_000);
const DRAWDOWNS = Number(process.env.BENCH_DRAWDOWNS ?? 50_000);
const LAWYERS = 200;
const FIRMS = 20;
const RUNS = 40;
const PASSWORD = 'Bench-pass-1';

async function seed(db: Database): Promise<void> {
  const hash = await hashPassword(PASSWORD);
  await db.execute(sql`insert into firms (name) select 'Firm ' || i from generate_series(1, ${FIRMS}) i`);
  await db.execute(sql`insert into users (email, password_hash, role, first_name, surname, status)
    values ('admin@bench.test', ${hash}, 'admin', 'Ada', 'Admin', 'active')`);
  await db.execute(sql`insert into users (email, password_hash, role, first_name, surname, status, firm_id)
    select 'lawyer' || i || '@bench.test', ${hash}, 'lawyer', 'Lee', 'Lawyer ' || i, 'active', 1 + i % ${FIRMS}
    from generate_series(1, ${LAWYERS}) i`);
  await db.execute(sql`insert into lawyers (user_id, firm_id)
    select id, firm_id from users where role = 'lawyer' order by id`);
  await db.execute(sql`insert into users (email, password_hash, role, first_name, surname, status)
    select 'client' || i || '@bench.test', ${hash}, 'customer', 'Cara', 'Client ' || i, 'active'
    from generate_series(1, ${LOANS}) i`);
  await db.execute(sql`insert into clients (user_id, first_name, last_name)
    select id, first_name, surname from users where role = 'customer' order by id`);
  await db.execute(sql`insert into applications (lawyer_id, client_id, status, case_ref, loan_amount_pence, started_at)
    select 1 + (c.id - 1) % ${LAWYERS}, c.id, 'approved', 'CASE-' || c.id, 5000000, now() - (c.id % 400) * interval '1 day'
    from clients c order by c.id`);
  await db.execute(sql`insert into loans (application_id, amount_pence, status, created_at)
    select a.id, 5000000 + (a.id % 7) * 100001, case when a.id % 10 = 0 then 'blocked' else 'open' end, a.started_at
    from applications a order by a.id`);
  await db.execute(sql`insert into drawdowns (loan_id, status, amount_pence, invoice_number, stage_of_case, material_changes,
      next_hearing_date, final_order_date, reaply_assets, expected_repayment_date, lawyer_declarations, created_at)
    select 1 + i % ${LOANS},
      (array['requested','providerApproved','providerRejected','customerApproved','customerRejected','paid'])[1 + i % 6],
      10000 + (i % 97) * 1001, 'INV-' || i, 'Disclosure', false, '01/03/2027', '01/09/2027', 'House', '31/12/2027',
      '{"noMaterialChangeLegal":true}'::jsonb, now() - (i % 300) * interval '1 day'
    from generate_series(1, ${DRAWDOWNS}) i`);
  await db.execute(sql`analyze`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main() {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const handle = await openDatabase({ databaseUrl, dataDir: 'memory://' });
  const config = { ...loadConfig({ NODE_ENV: 'test', STATIC_DIR: '/nonexistent' }) };
  const started = performance.now();
  await seed(handle.db);
  console.log(
    `Loans and drawdowns at scale · ${databaseUrl ? 'PostgreSQL' : 'embedded PGlite (memory)'} · ${LOANS.toLocaleString('en-GB')} loans, ${DRAWDOWNS.toLocaleString('en-GB')} drawdowns, ${LOANS.toLocaleString('en-GB')} applications · seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const app = await buildApp({ config, db: handle.db });
  await app.ready();
  const signIn = async (login: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/auth', payload: { login, password: PASSWORD } });
    if (res.statusCode !== 200) throw new Error(`sign-in of ${login}: ${res.statusCode} ${res.body}`);
    return res.json().token as string;
  };
  const staff = await signIn('admin@bench.test');
  const lawyer = await signIn('lawyer7@bench.test');
  const client = await signIn('client77@bench.test');

  const calls: [string, string, string][] = [
    ['applications list (staff)', '/api/applications?page=1&pageSize=10', staff],
    ['loans list (staff)', '/api/loans?page=1&pageSize=10', staff],
    ['loans list, page 500 (staff)', '/api/loans?page=500&pageSize=10', staff],
    ['loans search by name (staff)', '/api/loans?search=client%20777&pageSize=10', staff],
    ['loans list (lawyer)', '/api/loans?page=1&pageSize=10', lawyer],
    ['loans overview (staff)', '/api/loans/aggregate', staff],
    ['loans overview (lawyer)', '/api/loans/aggregate', lawyer],
    ['one loan (client)', '/api/loans/77', client],
    ['drawdowns list (staff)', '/api/drawdowns?page=1&pageSize=10', staff],
    ['drawdowns list, one loan (lawyer)', '/api/drawdowns?loanId=7&pageSize=10', lawyer],
    ['drawdowns overview (staff)', '/api/drawdowns/aggregate', staff],
    ['drawdowns overview (client)', '/api/drawdowns/aggregate', client],
  ];
  console.log('\ncall                                     p50 ms   p95 ms   max ms');
  for (const [name, url, token] of calls) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      times.push(performance.now() - t0);
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${name.padEnd(40)} ${percentile(times, 50).toFixed(1).padStart(6)}   ${percentile(times, 95).toFixed(1).padStart(6)}   ${times.at(-1)!.toFixed(1).padStart(6)}`,
    );
  }

  // The plans: which growing tables a query reads whole.
  console.log('\nquery plans (tables read whole by a sequential scan):');
  const creditUsing = sql`('requested','providerApproved','customerApproved','paid')`;
  const plans: [string, ReturnType<typeof sql>][] = [
    [
      'loans page (staff)',
      sql`select l.id, (select coalesce(sum(d.amount_pence),0) from drawdowns d where d.loan_id = l.id and d.status in ${creditUsing})
          from loans l join applications a on a.id = l.application_id join clients c on c.id = a.client_id
          join lawyers lw on lw.id = a.lawyer_id order by l.id desc limit 10`,
    ],
    [
      'loans page (lawyer)',
      sql`select l.id from loans l join applications a on a.id = l.application_id join clients c on c.id = a.client_id
          join lawyers lw on lw.id = a.lawyer_id where a.lawyer_id = 7 order by l.id desc limit 10`,
    ],
    [
      'drawdowns of one loan',
      sql`select d.id from drawdowns d join loans l on l.id = d.loan_id join applications a on a.id = l.application_id
          where d.loan_id = 7 order by d.id desc limit 10`,
    ],
    [
      'drawdowns overview (client)',
      sql`select sum(l.amount_pence) from loans l join applications a on a.id = l.application_id
          left join lateral (select sum(amount_pence) s from drawdowns d where d.loan_id = l.id) u on true where a.client_id = 77`,
    ],
  ];
  for (const [name, query] of plans) {
    const rows = await queryRows<Record<string, string>>(handle.db, sql`explain ${query}`);
    const plan = rows.map((row) => Object.values(row)[0]).join('\n');
    const scanned = [...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]);
    console.log(`  ${name.padEnd(32)} ${scanned.length ? `seq scan: ${[...new Set(scanned)].join(', ')}` : 'indexes only'}`);
  }

  // The database extract, as staff open it: time and the process's peak memory while it streams.
  const link = await app.inject({ method: 'GET', url: '/api/common/dump', headers: { authorization: `Bearer ${staff}` } });
  const { url } = link.json() as { url: string };
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const zip = await app.inject({
    method: 'GET',
    url: new URL(url, 'http://x').pathname,
    headers: { authorization: `Bearer ${staff}` },
  });
  clearInterval(sampler);
  console.log(
    `\ndatabase extract: ${(zip.rawPayload.length / 1024 / 1024).toFixed(1)} MB ZIP in ${((performance.now() - t0) / 1000).toFixed(1)} s; process memory ${(rssBefore / 1024 / 1024).toFixed(0)} MB before, peak ${(peak / 1024 / 1024).toFixed(0)} MB`,
  );
  await app.close();
  await handle.close();
}

await main();
