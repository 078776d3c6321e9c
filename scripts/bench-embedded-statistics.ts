/**
 * The embedded database's plans without statistics, and after the server's upkeep has analysed it
 * (docs/decisions.md 745). The compiled server makes, migrates and seeds a fresh DATA_DIR; the
 * folder is grown as the API benchmark grows it (scripts/bench-api-seed.ts, which ends with
 * `vacuum analyze`), and then its statistics are taken away, as a database never analysed has
 * none: the state an embedded portal reached in use when nothing analysed it. Each call of
 * scripts/bench-api-calls.ts is timed; then the upkeep's round that a server runs at its start
 * (`keepTablesUp`), and the calls are timed again. It prints figures; it is not a test.
 *
 *   npm run build && npx tsx scripts/bench-embedded-statistics.ts
 *   BENCH_CALL_RUNS=50 npx tsx scripts/bench-embedded-statistics.ts
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/server/db/connection';
import { keepTablesUp } from '../src/server/db/embedded-upkeep';
import { freePort } from '../tests/api/postgres-global-setup';
import { timeCalls } from './bench-api-calls';
import { growData, openForGrowth } from './bench-api-seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_CALL_RUNS ?? 50);

/** Runs the compiled server on the folder until it answers, then stops it: it makes, migrates and seeds it. */
async function seedWithServer(dataDir: string): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(root, 'dist-server/main.js')], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      if (
        await fetch(`${base}/api/config`).then(
          (res) => res.ok,
          () => false,
        )
      )
        break;
      if (i > 240) throw new Error(`${base} did not answer`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** Takes the portal's tables' statistics away: no column statistics, and the catalogue's counts of a table never counted. */
async function forgetStatistics(dataDir: string): Promise<void> {
  const handle = await openForGrowth({ dataDir });
  try {
    await handle.db.execute(sql`delete from pg_statistic
      where starelid in (select oid from pg_class where relnamespace = 'public'::regnamespace)`);
    await handle.db.execute(sql`update pg_class set reltuples = -1, relpages = 0
      where relnamespace = 'public'::regnamespace and relkind = 'r'`);
  } finally {
    await handle.close();
  }
}

/** Each call's time on the database as the server opens it, and, when asked, the upkeep's round first. */
async function timed(dataDir: string, upkeepFirst = false): Promise<Map<string, number>> {
  const handle = await openDatabase({ dataDir });
  try {
    if (upkeepFirst) {
      const started = performance.now();
      const done = await keepTablesUp(handle.db);
      console.log(
        `the upkeep's round: ${done.length} tables (${done.join(', ')}) in ${Math.round(performance.now() - started)} ms`,
      );
    }
    return await timeCalls(handle.db, RUNS);
  } finally {
    await handle.close();
  }
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-statistics-'));
  try {
    await seedWithServer(dataDir);
    const grow = await openForGrowth({ dataDir });
    const seconds = await growData(grow.db);
    await grow.close();
    console.log(`grown in ${seconds.toFixed(0)} s; statistics taken away`);
    await forgetStatistics(dataDir);
    const without = await timed(dataDir);
    const after = await timed(dataDir, true);
    console.log(`\neach call ${RUNS} times in a row, after 30 thrown away\n`);
    console.log('| call (ms a call) | without statistics | after the upkeep |');
    console.log('| --- | --- | --- |');
    for (const [name, ms] of without) console.log(`| ${name} | ${ms.toFixed(2)} | ${after.get(name)?.toFixed(2) ?? '—'} |`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
