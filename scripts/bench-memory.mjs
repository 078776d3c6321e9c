#!/usr/bin/env node
// Memory at rest of one server process: the compiled server (`npm run serve`: node on
// dist-server/main.js) against the TypeScript sources run through tsx (`npm run dev` without
// watch, and what `npm start` ran before). Each starts on a free port with a fresh embedded
// database (the demo data seeded), answers, rests 3 s and has its resident memory read (the
// whole process tree: tsx runs the server in a child process); then 200 requests a signed-in
// browser makes (pages, assets, API lists, brotli accepted) and the same reading again; and once
// more 35 s after it first answered, when a PDF thread kept from the demo seed has ended.
//   npm run build && node scripts/bench-memory.mjs [runs per mode, default 1]
// BENCH_DATABASE_URL=postgres://user@host:port/postgres runs each on a fresh database of that
// PostgreSQL server instead (the server's own memory, without the embedded database's).
// Linux only (reads /proc).
//   node scripts/bench-memory.mjs --startup [runs]
// prints instead the peak resident memory (VmHWM) of the compiled server while it starts: the
// first start on a fresh DATA_DIR (migrations and the demo seed; from the build's prepared
// cluster when dist-server/pglite-cluster exists, docs/decisions.md 575) and a restart on the same
// folder. The embedded database only.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const startup = process.argv.includes('--startup');
const runs = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 1);

const modes = {
  'compiled (node dist-server/main.js)': [process.execPath, 'dist-server/main.js'],
  'tsx (tsx src/server/main.ts)': [process.execPath, path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/server/main.ts'],
};
if (!fs.existsSync(path.join(root, 'dist-server', 'main.js')) || !fs.existsSync(path.join(root, 'dist', 'index.html'))) {
  console.error('Build first: npm run build');
  process.exit(1);
}

const freePort = () =>
  new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resident memory of a process and all its descendants, in MB. */
function treeRssMb(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let kb = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
    stack.push(...(children.get(p) ?? []));
  }
  return kb / 1024;
}

async function measure(command) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-memory-'));
  const database = await freshDatabase();
  const started = Date.now();
  const server = spawn(command[0], command.slice(1), {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    stdio: 'ignore',
  });
  try {
    for (let i = 0; ; i++) {
      if (i > 240) throw new Error('the server did not start');
      try {
        if ((await fetch(`${base}/api/config`)).ok) break;
      } catch {
        // not up yet
      }
      await sleep(250);
    }
    const startMs = Date.now() - started;
    await sleep(3000);
    const atStart = treeRssMb(server.pid);

    const br = { 'accept-encoding': 'br, gzip' };
    const signIn = await fetch(`${base}/api/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'admin@demo.test', password: 'Demo-pass-1' }),
    });
    const { token } = await signIn.json();
    const auth = { ...br, authorization: `Bearer ${token}` };
    const html = await (await fetch(`${base}/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    const urls = [
      ['/', br],
      ['/sw.js', br],
      ...assets.map((a) => [a, br]),
      ['/api/config', br],
      ['/api/auth', auth],
      ['/api/applications', auth],
      ['/api/loans', auth],
      ['/api/drawdowns', auth],
      ['/api/firms', auth],
    ];
    let requests = 1;
    while (requests < 200) {
      const [url, headers] = urls[requests % urls.length];
      const res = await fetch(`${base}${url}`, { headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      requests++;
    }
    await sleep(3000);
    const after = treeRssMb(server.pid);
    // Quiet until 35 s after it first answered: by then a PDF thread kept from the demo seed's
    // documents has ended (30 s idle, docs/decisions.md 742).
    await sleep(Math.max(0, started + startMs + 35_000 - Date.now()));
    return { startMs, atStart, after, quiet: treeRssMb(server.pid), requests };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }
}

async function freshDatabase() {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) return undefined;
  const name = `bench_memory_${Date.now()}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** Peak resident memory (VmHWM) of one process, in MB. */
function peakRssMb(pid) {
  return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** Starts the compiled server on dataDir, waits until it answers and returns its peak memory so far. */
async function peakWhileStarting(dataDir) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const server = spawn(process.execPath, ['dist-server/main.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: base, DATABASE_URL: '' },
    stdio: 'ignore',
  });
  try {
    for (let i = 0; ; i++) {
      if (i > 480) throw new Error('the server did not start');
      try {
        if ((await fetch(`${base}/api/config`)).ok) break;
      } catch {
        // not up yet
      }
      await sleep(250);
    }
    const startMs = Date.now() - started;
    // The seed's last writes and the first housekeeping pass run just after the server listens.
    await sleep(2000);
    return { startMs, peak: peakRssMb(server.pid) };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

if (startup) {
  const prepared = fs.existsSync(path.join(root, 'dist-server', 'pglite-cluster.json'));
  console.log(
    `Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}, embedded PGlite, ` +
      `${prepared ? 'from the prepared cluster' : 'no prepared cluster (initdb at first start)'}`,
  );
  for (let run = 1; run <= runs; run++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-memory-'));
    try {
      const first = await peakWhileStarting(dataDir);
      const again = await peakWhileStarting(dataDir);
      console.log(
        `peak RSS while starting: first start (migrations, demo seed) ${first.peak.toFixed(0)} MB in ${(first.startMs / 1000).toFixed(1)} s · ` +
          `restart ${again.peak.toFixed(0)} MB in ${(again.startMs / 1000).toFixed(1)} s`,
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  process.exit(0);
}

console.log(
  `Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}, ` +
    `database: ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite'}`,
);
for (let run = 1; run <= runs; run++) {
  for (const [name, command] of Object.entries(modes)) {
    const r = await measure(command);
    console.log(
      `${name.padEnd(38)} ready in ${(r.startMs / 1000).toFixed(1)} s · RSS at rest ${r.atStart.toFixed(0)} MB · ` +
        `after ${r.requests} requests ${r.after.toFixed(0)} MB · 35 s after it answered ${r.quiet.toFixed(0)} MB`,
    );
  }
}
