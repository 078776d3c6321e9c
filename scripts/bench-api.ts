/**
 * The API under load (`npm run bench:api`): a built portal server (dist-server/main.js, this
 * checkout's unless BENCH_SERVER_DIR names another) and a bare Fastify route
 * (scripts/bench-api-bare.mjs) started side by side, then every call, the bare route included,
 * driven by autocannon from this process (scripts/bench-api-load.ts): 50 keep-alive connections on
 * 127.0.0.1, a 3 s warm-up thrown away, then 10 s measured on the same connections. Requests/s, p50 and p99 of the sign-in,
 * the applications list of each role, the searches, one application, a step save, the loans and
 * drawdowns lists and overviews; the ratio to the bare route; each answer's status (a call with
 * answers that are not 2xx is flagged); the generator's, the server's and the machine's CPU, to tell
 * what held the rate; the server's memory. First on the demo data, then grown to 100,000
 * applications (with their journeys), 20,000 loans and 100,000 drawdowns
 * (scripts/bench-api-seed.ts), on the embedded database and on a throw-away PostgreSQL server (initdb
 * in a temporary folder, a free port, 127.0.0.1 only, removed afterwards). At the end, a Markdown
 * table for docs/benchmarks.md with the goals of the 100,000 phase marked. It prints figures; it is
 * not a test (docs/decisions.md (600)–(603)).
 *
 *   npm run bench:api
 *   BENCH_DB=pglite|postgres BENCH_SECONDS=10 BENCH_WARMUP_SECONDS=3 BENCH_CONNECTIONS=50 npm run bench:api
 *   BENCH_PHASES=grown BENCH_CALLS='overview|list \(staff' npm run bench:api   # only the 100,000 phase, only these calls
 *   BENCH_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=prof' …                        # the server's CPU profile, written at its end
 *   BENCH_SERVER_LOG=server.log …                                                 # the server's log, kept in that file
 *   BENCH_SERVER_DIR=/path/to/other/checkout npx tsx scripts/bench-api.ts       # that checkout's build (node scripts/build-server.mjs there first)
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { DEMO_PASSWORD, demoAccounts } from '../src/server/seed/demo-accounts';
import { freePort, startThrowawayPostgres } from '../tests/api/postgres-global-setup';
import { validSteps } from '../tests/fixtures/journeys';
import { measureCall, type Call, type LoadSettings } from './bench-api-load';
import { BARE, bareNotes, markdownTable, printHeader, printLine, type Row, type Section } from './bench-api-report';
import { defaultCounts, growData, openForGrowth } from './bench-api-seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The checkout whose built server is measured: this one unless told (a "before" build, say). */
const SERVER_DIR = path.resolve(process.env.BENCH_SERVER_DIR ?? root);
const SETTINGS: LoadSettings = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  warmUpSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 3),
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
};
/** Sign-ins are argon2 (deliberately slow) and rate-limited: fewer of them. */
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 200);
const DATABASES = (process.env.BENCH_DB ?? 'pglite,postgres').split(',') as Section['database'][];
/** 'demo' (the demo data), 'grown' (100,000 applications more): both unless told. */
const PHASES = (process.env.BENCH_PHASES ?? 'demo,grown').split(',');
/** Only the calls whose name matches this regular expression (all unless told). */
const CALLS = new RegExp(process.env.BENCH_CALLS ?? '.', 'i');

// ── processes ─────────────────────────────────────────────────────────────────────────────────

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the process ended (${child.exitCode}) before answering ${url}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Resident memory of a process, MB. */
function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Target {
  base: string;
  pid: number;
}

interface Portal extends Target {
  child: ChildProcess;
}

/** The checkout's commit, to say which build was measured. */
function commitOf(dir: string): string {
  try {
    const commit = execFileSync('git', ['-C', dir, 'log', '-1', '--format=%h %s'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty = execFileSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return dirty ? `${commit} (with changes not committed)` : commit;
  } catch {
    return 'not a git checkout';
  }
}

/** The server under test, its own migrations applied as it starts (they sit beside its build). */
async function startPortal(env: Record<string, string>): Promise<Portal> {
  const port = await freePort();
  // BENCH_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=prof' writes the server's CPU profile at its end.
  const nodeOptions = (process.env.BENCH_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeOptions, path.join(SERVER_DIR, 'dist-server/main.js')], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // The sign-in's connections each give an address of their own (signInCall).
      TRUST_PROXY: '127.0.0.1',
      STATIC_DIR: path.join(SERVER_DIR, 'dist'),
    },
    // BENCH_SERVER_LOG=<file> keeps the server's log (its upkeep, its warnings) in that file.
    stdio: ['ignore', process.env.BENCH_SERVER_LOG ? fs.openSync(process.env.BENCH_SERVER_LOG, 'a') : 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/config`, child);
  return { base, pid: child.pid!, child };
}

/** A throw-away PostgreSQL server, as the API tests' lane starts one, with room for 50 connections and the server's own. */
function startPostgres(): Promise<{ url: string; stop: () => void }> {
  return startThrowawayPostgres({
    prefix: 'portal-bench-pg-',
    settings: `-c max_connections=${Math.max(60, SETTINGS.connections + 20)}`,
  });
}

// ── the calls ─────────────────────────────────────────────────────────────────────────────────

async function signIn(base: string, login: string): Promise<string> {
  const res = await fetch(`${base}/api/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${login}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

async function getJson<T>(base: string, pathname: string, token: string): Promise<T> {
  const res = await fetch(base + pathname, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * The sign-in: the limits count attempts in flight per address and per account from an address
 * (docs/decisions.md (601)), so each connection comes from an address of its own (X-Forwarded-For,
 * the server trusting 127.0.0.1 as its proxy) and the connections take the demo accounts in turn:
 * what is measured is argon2 and the session, not the limiter's refusals.
 */
function signInCall(): Call {
  const logins = Object.values(demoAccounts);
  let connection = 0;
  return {
    method: 'POST',
    path: '/api/auth',
    amount: SIGN_INS,
    setupClient: (client: autocannon.Client) => {
      const n = connection++;
      client.setRequests([
        {
          method: 'POST',
          path: '/api/auth',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.77.${n >> 8}.${n & 255}` },
          body: JSON.stringify({ login: logins[n % logins.length], password: DEMO_PASSWORD }),
        },
      ]);
    },
  };
}

/**
 * The step save: each connection saves the financial step of one of the lawyer's applications with
 * the version it last saw (a 409 tells it the server's, and it goes on from there). The versions
 * outlast the warm-up's connections, so the measured run starts from the server's.
 */
function stepSaveCall(ids: number[], token: string): Call {
  const versions = new Map<number, number>();
  let connection = 0;
  return {
    method: 'POST',
    path: '/api/applications/update/financial',
    token,
    setupClient: (client: autocannon.Client) => {
      const applicationId = ids[connection++ % ids.length]!;
      client.setRequests([
        {
          method: 'POST',
          path: '/api/applications/update/financial',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({
              applicationId,
              baseVersion: versions.get(applicationId) ?? 0,
              journeyData: { financial: validSteps.financial },
            }),
          }),
          onResponse: (status, body) => {
            const parsed = JSON.parse(body) as { version?: number; current?: { version: number } };
            const version = status === 200 ? parsed.version : parsed.current?.version;
            if (version !== undefined) versions.set(applicationId, version);
          },
        },
      ]);
    },
  };
}

async function measure(portal: Portal, bareTarget: Target, section: Omit<Section, 'bare' | 'rows' | 'rss'>): Promise<Section> {
  const { base } = portal;
  const tokens = {
    staff: await signIn(base, demoAccounts.admin),
    firm: await signIn(base, demoAccounts.firm),
    lawyer: await signIn(base, demoAccounts.lawyer),
    client: await signIn(base, demoAccounts.customer),
  };
  type List = { items: { id: number }[]; total: number };
  const lawyerApps = await getJson<List>(base, '/api/applications?pageSize=100&status=incomplete', tokens.lawyer);
  const anyLawyerApp = (await getJson<List>(base, '/api/applications?pageSize=1', tokens.lawyer)).items[0]?.id;
  const bare = await measureCall(bareTarget.base, bareTarget.pid, { path: '/bare' }, SETTINGS);
  printHeader(section.title);
  printLine(BARE, bare, bare);
  const rows: Row[] = [];
  const run = async (name: string, call: Call) => {
    if (!CALLS.test(name)) return;
    const row = { name, ...(await measureCall(base, portal.pid, call, SETTINGS)) };
    printLine(name, row, bare);
    rows.push(row);
  };
  const get = (name: string, pathname: string, token?: string) => run(name, { path: pathname, token });
  await get('config (no session, for reference)', '/api/config');
  await run(`sign-in (argon2; ${SIGN_INS} at most)`, signInCall());
  // The applications screen asks each item's abilities (its links follow them), whoever is signed in.
  const applications = (query: string) => `/api/applications?${query}&abilities=true`;
  await get('applications list (staff)', applications('page=1&pageSize=10'), tokens.staff);
  await get('applications list (firm)', applications('page=1&pageSize=10'), tokens.firm);
  await get('applications list (lawyer)', applications('page=1&pageSize=10'), tokens.lawyer);
  await get('applications list (client)', applications('page=1&pageSize=10'), tokens.client);
  await get('search "shah", page 3 (staff)', applications('search=shah&page=3&pageSize=10'), tokens.staff);
  await get('search "ben-0123" (staff)', applications('search=ben-0123&page=1&pageSize=10'), tokens.staff);
  // A word of one or two letters matches the start of a name (docs/decisions.md (622)): measured apart.
  await get('search "s", one letter (staff)', applications('search=s&page=1&pageSize=10'), tokens.staff);
  await get('search "sh", two letters (staff)', applications('search=sh&page=1&pageSize=10'), tokens.staff);
  if (anyLawyerApp) await get('one application (lawyer)', `/api/applications/${anyLawyerApp}`, tokens.lawyer);
  const ids = lawyerApps.items.map((item) => item.id);
  // One name in every phase (the table's rows are by name); how many applications share the
  // connections is said on its own line: with fewer applications than connections, 409s are expected.
  if (ids.length > 0 && CALLS.test('step save')) {
    console.log(
      `  (step save: ${Math.min(ids.length, SETTINGS.connections)} of the lawyer's applications over ${SETTINGS.connections} connections)`,
    );
    await run('step save (lawyer)', stepSaveCall(ids, tokens.lawyer));
  }
  await get('loans list (staff)', '/api/loans?page=1&pageSize=10', tokens.staff);
  await get('loans list (lawyer)', '/api/loans?page=1&pageSize=10', tokens.lawyer);
  await get('loans overview (staff)', '/api/loans/aggregate', tokens.staff);
  await get('drawdowns list (staff)', '/api/drawdowns?page=1&pageSize=10', tokens.staff);
  await get('drawdowns list (lawyer)', '/api/drawdowns?page=1&pageSize=10', tokens.lawyer);
  await get('drawdowns overview (staff)', '/api/drawdowns/aggregate', tokens.staff);
  await get('drawdowns overview (client)', '/api/drawdowns/aggregate', tokens.client);
  const rss = rssOf(portal.pid);
  console.log(`server memory after the calls: ${rss.toFixed(0)} MB (RSS)`);
  return { ...section, bare, rows, rss };
}

async function main(): Promise<void> {
  const entry = path.join(SERVER_DIR, 'dist-server/main.js');
  if (!fs.existsSync(entry)) {
    if (SERVER_DIR !== root) throw new Error(`${entry} is missing: run \`node scripts/build-server.mjs\` in ${SERVER_DIR} first`);
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  }
  const barePort = await freePort();
  const bareChild = spawn(process.execPath, [path.join(root, 'scripts/bench-api-bare.mjs')], {
    env: { ...process.env, PORT: String(barePort) },
    stdio: 'inherit',
  });
  const bareTarget: Target = { base: `http://127.0.0.1:${barePort}`, pid: bareChild.pid! };
  await waitFor(`${bareTarget.base}/bare`, bareChild);
  console.log(
    `API under load · autocannon, ${SETTINGS.connections} connections, ${SETTINGS.warmUpSeconds} s warm-up then ${SETTINGS.seconds} s per call · ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} · Node ${process.versions.node} · ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  );
  console.log(`server under test: ${SERVER_DIR} · ${commitOf(SERVER_DIR)}`);
  const sections: Section[] = [];
  try {
    for (const database of DATABASES) {
      const pg = database === 'postgres' ? await startPostgres() : undefined;
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-api-'));
      const env: Record<string, string> = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
      const label = pg ? 'PostgreSQL' : 'embedded';
      try {
        // The demo phase's server also makes and migrates the database the growth adds to.
        let portal = await startPortal(env);
        if (PHASES.includes('demo'))
          sections.push(await measure(portal, bareTarget, { database, phase: 'demo', title: `${label}, demo data` }));
        await stopProcess(portal.child);
        if (!PHASES.includes('grown')) continue;
        const handle = await openForGrowth({ databaseUrl: pg?.url, dataDir });
        const seconds = await growData(handle.db);
        await handle.close();
        console.log(
          `\ngrown by ${defaultCounts.applications.toLocaleString('en-GB')} applications (5 journey steps each), ${defaultCounts.loans.toLocaleString('en-GB')} loans, ${defaultCounts.drawdowns.toLocaleString('en-GB')} drawdowns in ${seconds.toFixed(0)} s`,
        );
        portal = await startPortal(env);
        sections.push(
          await measure(portal, bareTarget, {
            database,
            phase: 'grown',
            title: `${label}, ${defaultCounts.applications.toLocaleString('en-GB')} applications`,
          }),
        );
        await stopProcess(portal.child);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
        pg?.stop();
      }
    }
  } finally {
    await stopProcess(bareChild);
  }
  console.log(`\nFor docs/benchmarks.md (${commitOf(SERVER_DIR)}):\n`);
  console.log(markdownTable(sections));
  console.log(`\n${bareNotes(sections)}`);
}

await main();
