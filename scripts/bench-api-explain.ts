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
import * as schema from '../src/server/db/schema';
import type { Database } from '../src/server/db/connection';
import { pgliteExtensions } from '../src/server/db/connection';
import { benchmarkCalls } from './bench-api-calls';

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

/** The milliseconds of an EXPLAIN line such as `Execution Time: 1.234 ms` (0 when absent). */
const msOf = (line: string): number => Number(/([\d.]+) ms/.exec(line)?.[1] ?? 0);

async function main(): Promise<void> {
  const { db, caught, run, close, kind } = await open();
  const full = process.env.EXPLAIN_FULL === '1';
  try {
    const calls = await benchmarkCalls(db);
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
