/**
 * The API under load (`npm run bench:api`): the compiled portal (dist-server/main.js, built first
 * when missing) and a bare Fastify route (scripts/bench-api-bare.mjs) started side by side, then 50
 * connections of keep-alive HTTP/1.1 on 127.0.0.1 per call, bounded in time and count: requests/s,
 * p50 and p99 of the sign-in, the applications list of each role, a search with a page number, one
 * application, a step save, the loans and drawdowns lists and overviews; the ratio to the bare
 * route and the server's memory. First on the demo data, then grown to 100,000 applications (with
 * their journeys), 20,000 loans and 100,000 drawdowns (scripts/bench-api-seed.ts), on the embedded
 * database and on a throw-away PostgreSQL server (initdb in a temporary folder, a free port,
 * 127.0.0.1 only, removed afterwards). It prints figures; it is not a test.
 *
 *   npm run bench:api
 *   BENCH_DB=pglite|postgres BENCH_SECONDS=5 BENCH_MAX_REQUESTS=4000 npm run bench:api
 *   BENCH_PHASES=grown BENCH_CALLS='overview|list \(staff' npm run bench:api   # only the 100,000 phase, only these calls
 *   BENCH_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=prof' …                        # the server's CPU profile, written at its end
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/server/db/connection';
import { DEMO_PASSWORD, demoAccounts } from '../src/server/seed/demo-accounts';
import { validSteps } from '../tests/fixtures/journeys';
import { defaultCounts, growData } from './bench-api-seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const MAX_REQUESTS = Number(process.env.BENCH_MAX_REQUESTS ?? 4000);
/** Sign-ins are argon2 (deliberately slow) and rate-limited: fewer of them. */
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 200);
const DATABASES = (process.env.BENCH_DB ?? 'pglite,postgres').split(',');
/** 'demo' (the demo data), 'grown' (100,000 applications more): both unless told. */
const PHASES = (process.env.BENCH_PHASES ?? 'demo,grown').split(',');
/** Only the calls whose name matches this regular expression (all unless told). */
const CALLS = new RegExp(process.env.BENCH_CALLS ?? '.', 'i');

// ── load ──────────────────────────────────────────────────────────────────────────────────────

interface Request {
  method: 'GET' | 'POST';
  path: string;
  token?: string;
  body?: unknown;
}

interface Result {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
}

function send(agent: http.Agent, port: number, req: Request): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    const r = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: req.method,
        path: req.path,
        headers: {
          ...(req.token ? { authorization: `Bearer ${req.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    r.end(payload);
  });
}

/** CONNECTIONS workers, each one request at a time, until the time or the count is used up. */
async function load(
  port: number,
  next: (worker: number) => Request,
  options: { maxRequests?: number; onAnswer?: (worker: number, status: number, body: string) => void } = {},
): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const maxRequests = options.maxRequests ?? MAX_REQUESTS;
  const times: number[] = [];
  const statuses: Record<number, number> = {};
  let issued = 0;
  const started = performance.now();
  const deadline = started + DURATION_MS;
  const worker = async (w: number) => {
    while (issued < maxRequests && performance.now() < deadline) {
      issued++;
      const t0 = performance.now();
      const { status, body } = await send(agent, port, next(w));
      times.push(performance.now() - t0);
      statuses[status] = (statuses[status] ?? 0) + 1;
      options.onAnswer?.(w, status, body);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, w) => worker(w)));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
  return { requests: times.length, rps: times.length / elapsed, p50: at(50), p99: at(99), statuses };
}

// ── processes ─────────────────────────────────────────────────────────────────────────────────

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

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

interface Portal {
  port: number;
  child: ChildProcess;
}

async function startPortal(env: Record<string, string>): Promise<Portal> {
  const port = await freePort();
  // BENCH_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=prof' writes the server's CPU profile at its end.
  const nodeOptions = (process.env.BENCH_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeOptions, path.join(root, 'dist-server/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      STATIC_DIR: path.join(root, 'dist'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`http://127.0.0.1:${port}/api/config`, child);
  return { port, child };
}

/** A throw-away PostgreSQL server, as the API tests' lane starts one, with room for 50 connections and the server's own. */
async function startPostgres(): Promise<{ url: string; stop: () => void }> {
  const { startThrowawayPostgres } = await import('../tests/api/postgres-global-setup');
  return startThrowawayPostgres({ prefix: 'portal-bench-pg-', settings: '-c max_connections=60' });
}

// ── the calls ─────────────────────────────────────────────────────────────────────────────────

interface Row extends Result {
  name: string;
}

async function signIn(port: number, login: string): Promise<string> {
  const agent = new http.Agent({ keepAlive: false });
  const res = await send(agent, port, { method: 'POST', path: '/api/auth', body: { login, password: DEMO_PASSWORD } });
  if (res.status !== 200) throw new Error(`sign-in of ${login}: ${res.status} ${res.body}`);
  return (JSON.parse(res.body) as { token: string }).token;
}

async function getJson<T>(port: number, pathname: string, token: string): Promise<T> {
  const res = await send(new http.Agent(), port, { method: 'GET', path: pathname, token });
  if (res.status !== 200) throw new Error(`${pathname}: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as T;
}

async function measure({ port, child }: Portal, barePort: number): Promise<{ rows: Row[]; bare: Result; rss: number }> {
  const tokens = {
    staff: await signIn(port, demoAccounts.admin),
    firm: await signIn(port, demoAccounts.firm),
    lawyer: await signIn(port, demoAccounts.lawyer),
    client: await signIn(port, demoAccounts.customer),
  };
  type List = { items: { id: number }[]; total: number };
  const lawyerApps = await getJson<List>(port, '/api/applications?pageSize=100&status=incomplete', tokens.lawyer);
  const anyLawyerApp = (await getJson<List>(port, '/api/applications?pageSize=1', tokens.lawyer)).items[0]?.id;
  const rows: Row[] = [];
  const get = async (name: string, pathname: string, token?: string) => {
    if (!CALLS.test(name)) return;
    rows.push({ name, ...(await load(port, () => ({ method: 'GET', path: pathname, token }))) });
  };
  const bare = await load(barePort, () => ({ method: 'GET', path: '/bare' }));
  await get('config (no session, for reference)', '/api/config');
  if (CALLS.test('sign-in'))
    rows.push({
      name: `sign-in (argon2; ${SIGN_INS} at most)`,
      ...(await load(
        port,
        () => ({ method: 'POST', path: '/api/auth', body: { login: demoAccounts.lawyer, password: DEMO_PASSWORD } }),
        {
          maxRequests: SIGN_INS,
        },
      )),
    });
  await get('applications list (staff)', '/api/applications?page=1&pageSize=10', tokens.staff);
  await get('applications list (firm)', '/api/applications?page=1&pageSize=10', tokens.firm);
  await get('applications list (lawyer)', '/api/applications?page=1&pageSize=10&abilities=true', tokens.lawyer);
  await get('applications list (client)', '/api/applications?page=1&pageSize=10&abilities=true', tokens.client);
  await get('search "shah", page 3 (staff)', '/api/applications?search=shah&page=3&pageSize=10', tokens.staff);
  await get('search "ben-0123" (staff)', '/api/applications?search=ben-0123&page=1&pageSize=10', tokens.staff);
  if (anyLawyerApp) await get('one application (lawyer)', `/api/applications/${anyLawyerApp}`, tokens.lawyer);
  // The step save: each connection saves the financial step of one of the lawyer's applications,
  // with the version it last saw (a 409 tells it the server's, and it goes on from there).
  const ids = lawyerApps.items.map((item) => item.id);
  if (ids.length > 0 && CALLS.test('step save')) {
    const versions = new Map<number, number>();
    const idOf = (w: number) => ids[w % ids.length]!;
    rows.push({
      name: `step save (lawyer, ${Math.min(ids.length, CONNECTIONS)} applications)`,
      ...(await load(
        port,
        (w) => ({
          method: 'POST',
          path: '/api/applications/update/financial',
          token: tokens.lawyer,
          body: {
            applicationId: idOf(w),
            baseVersion: versions.get(idOf(w)) ?? 0,
            journeyData: { financial: validSteps.financial },
          },
        }),
        {
          onAnswer: (w, status, body) => {
            const parsed = JSON.parse(body) as { version?: number; current?: { version: number } };
            const version = status === 200 ? parsed.version : parsed.current?.version;
            if (version !== undefined) versions.set(idOf(w), version);
          },
        },
      )),
    });
  }
  await get('loans list (staff)', '/api/loans?page=1&pageSize=10', tokens.staff);
  await get('loans list (lawyer)', '/api/loans?page=1&pageSize=10', tokens.lawyer);
  await get('loans overview (staff)', '/api/loans/aggregate', tokens.staff);
  await get('drawdowns list (staff)', '/api/drawdowns?page=1&pageSize=10', tokens.staff);
  await get('drawdowns list (lawyer)', '/api/drawdowns?page=1&pageSize=10', tokens.lawyer);
  await get('drawdowns overview (staff)', '/api/drawdowns/aggregate', tokens.staff);
  await get('drawdowns overview (client)', '/api/drawdowns/aggregate', tokens.client);
  return { rows, bare, rss: rssOf(child.pid!) };
}

function print(title: string, { rows, bare, rss }: { rows: Row[]; bare: Result; rss: number }): void {
  const statusText = (s: Record<number, number>) =>
    Object.entries(s)
      .map(([code, n]) => `${code}×${n}`)
      .join(' ');
  console.log(`\n${title} · server memory after the run ${rss.toFixed(0)} MB (RSS)`);
  console.log('call                                          req/s   of bare    p50 ms    p99 ms  answers');
  const line = (name: string, r: Result) =>
    console.log(
      `${name.padEnd(44)} ${r.rps.toFixed(0).padStart(6)}  ${((100 * r.rps) / bare.rps).toFixed(1).padStart(6)} %  ${r.p50.toFixed(1).padStart(8)}  ${r.p99.toFixed(1).padStart(8)}  ${statusText(r.statuses)}`,
    );
  line('bare Fastify route', bare);
  for (const row of rows) line(row.name, row);
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'dist-server/main.js')))
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  const barePort = await freePort();
  const bare = spawn(process.execPath, [path.join(root, 'scripts/bench-api-bare.mjs')], {
    env: { ...process.env, PORT: String(barePort) },
    stdio: 'inherit',
  });
  await waitFor(`http://127.0.0.1:${barePort}/bare`, bare);
  console.log(
    `API under load · ${CONNECTIONS} connections, ${DURATION_MS / 1000} s or ${MAX_REQUESTS} requests per call · ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} · Node ${process.versions.node} · ${new Date().toISOString().slice(0, 10)}`,
  );
  try {
    for (const kind of DATABASES) {
      const pg = kind === 'postgres' ? await startPostgres() : undefined;
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-api-'));
      const env: Record<string, string> = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
      const label = pg ? 'PostgreSQL' : 'embedded database (PGlite, on disk)';
      try {
        let portal = await startPortal(env);
        if (PHASES.includes('demo')) print(`${label}, demo data`, await measure(portal, barePort));
        await stopProcess(portal.child);
        if (!PHASES.includes('grown')) continue;
        const handle = await openDatabase({ databaseUrl: pg?.url, dataDir });
        const seconds = await growData(handle.db);
        await handle.close();
        console.log(
          `\ngrown by ${defaultCounts.applications.toLocaleString('en-GB')} applications (5 journey steps each), ${defaultCounts.loans.toLocaleString('en-GB')} loans, ${defaultCounts.drawdowns.toLocaleString('en-GB')} drawdowns in ${seconds.toFixed(0)} s`,
        );
        portal = await startPortal(env);
        print(
          `${label}, ${defaultCounts.applications.toLocaleString('en-GB')} applications more`,
          await measure(portal, barePort),
        );
        await stopProcess(portal.child);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
        pg?.stop();
      }
    }
  } finally {
    await stopProcess(bare);
  }
}

await main();
