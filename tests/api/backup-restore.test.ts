import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, queryRows } from '../../src/server/db/connection';
import { DEMO_PASSWORD } from '../../src/server/seed/seed';
import { envFor, root, runScript, tsx } from './backup-commands';
import { findPostgresBin } from './postgres-global-setup';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-'));
const children: ChildProcess[] = [];
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

interface Server {
  base: string;
  stop(): Promise<void>;
}

/** A real server process (tsx src/server/main.ts) on dataDir, once it says it is ready. */
async function startServer(dataDir: string, databaseUrl = ''): Promise<Server> {
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const child = spawn(tsx, ['src/server/main.ts'], {
    cwd: root,
    env: envFor(dataDir, port, databaseUrl),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await expect.poll(() => output, { timeout: 120_000, interval: 200 }).toMatch(/Portal ready|Error|Cannot start/);
  expect(output).toContain('Portal ready');
  // tsx runs the server in a child of its own, which shuts down cleanly on SIGTERM: the lock names
  // it on the embedded database; on PostgreSQL it is tsx's only child.
  const pid = databaseUrl
    ? Number(
        execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
          .trim()
          .split('\n')[0],
      )
    : (JSON.parse(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8')) as { pid: number }).pid;
  return {
    base: `http://127.0.0.1:${port}`,
    async stop() {
      process.kill(pid, 'SIGTERM');
      await exited;
    },
  };
}

const run = (script: 'backup' | 'restore', dataDir: string, arg: string) => runScript(script, dataDir, arg, children);

/** Every table's row count, read straight from the database (an embedded one that no server holds). */
async function rowCounts(dataDir: string, databaseUrl?: string): Promise<Record<string, number>> {
  const handle = await openDatabase({ dataDir, databaseUrl });
  try {
    const tables = await queryRows<{ name: string }>(
      handle.db,
      sql`select format('%I.%I', table_schema, table_name) as name from information_schema.tables
          where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const [row] = await queryRows<{ n: number }>(handle.db, sql.raw(`select count(*)::int as n from ${name}`));
      counts[name] = row!.n;
    }
    return counts;
  } finally {
    await handle.close();
  }
}

/** What a user reads through the API: their applications, and every document's bytes by checksum. */
async function readAsUser(base: string, login: string) {
  const json = async (url: string, token?: string) => {
    const res = await fetch(`${base}${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    expect(res.status, url).toBe(200);
    return res.json();
  };
  const signIn = await fetch(`${base}/api/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password: DEMO_PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const { token } = (await signIn.json()) as { token: string };
  const list = (await json('/api/applications?pageSize=100', token)) as { items: { id: number; status: string }[] };
  const documents: Record<string, string> = {};
  for (const application of list.items) {
    const docs = (await json(`/api/applications/${application.id}/docs`, token)) as {
      documents: { files: { id: number; key: string; url: string }[] }[];
    };
    for (const file of docs.documents.flatMap((d) => d.files)) {
      const link = (await json(file.url, token)) as { url: string };
      const res = await fetch(new URL(link.url, base));
      expect(res.status).toBe(200);
      documents[file.key] = sha256(new Uint8Array(await res.arrayBuffer()));
    }
  }
  return { applications: list.items.map((a) => ({ id: a.id, status: a.status })), documents };
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(scratch, { recursive: true, force: true });
});

// docs/decisions.md 570-572. The embedded database's round trip; PostgreSQL's is pg_dump's (README).
describe.skipIf(process.env.API_TEST_DB === 'postgres')('npm run backup and npm run restore (embedded database)', () => {
  it("backs up a running server's database and files, and restores them into a fresh DATA_DIR that serves the same records", async () => {
    const original = path.join(scratch, 'original');
    const server = await startServer(original);
    const backup = path.join(scratch, 'backup');
    let before: Awaited<ReturnType<typeof readAsUser>>;
    try {
      before = await readAsUser(server.base, 'admin@demo.test');
      expect(before.applications.length).toBeGreaterThan(0);
      expect(Object.keys(before.documents).length).toBeGreaterThan(0);

      // While the server runs (it holds the data folder).
      const backedUp = await run('backup', original, backup);
      expect(backedUp.output).toContain('A server is running on');
      expect(backedUp.code, backedUp.output).toBe(0);
    } finally {
      await server.stop();
    }
    const originalCounts = await rowCounts(original);

    // Never over a data folder in use.
    const refused = await run('restore', original, backup);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`Cannot restore: ${original} (DATA_DIR) is not empty`);

    const copy = path.join(scratch, 'copy');
    const restored = await run('restore', copy, backup);
    expect(restored.code, restored.output).toBe(0);
    // Every file a row names is in the restored store.
    const handle = await openDatabase({ dataDir: copy });
    const keys = await queryRows<{ key: string }>(handle.db, sql`select key from files`);
    await handle.close();
    expect(keys.length).toBeGreaterThan(0);
    for (const { key } of keys) expect(fs.existsSync(path.join(copy, 'files', ...key.split('/'))), key).toBe(true);
    expect(await rowCounts(copy)).toEqual(originalCounts);

    const again = await startServer(copy);
    try {
      expect(await readAsUser(again.base, 'admin@demo.test')).toEqual(before);
    } finally {
      await again.stop();
    }
  }, 300_000);

  it('with no server running the backup copies the folder itself; a damaged backup is refused', async () => {
    const original = path.join(scratch, 'original');
    const backup = path.join(scratch, 'offline-backup');
    const backedUp = await run('backup', original, backup);
    expect(backedUp.code, backedUp.output).toBe(0);
    expect(backedUp.output).toContain('No server is running on');
    const manifest = JSON.parse(fs.readFileSync(path.join(backup, 'manifest.json'), 'utf8')) as { files: { path: string }[] };
    fs.appendFileSync(path.join(backup, 'files', ...manifest.files[0]!.path.split('/')), 'x');
    const damaged = await run('restore', path.join(scratch, 'elsewhere'), backup);
    expect(damaged.code).toBe(1);
    expect(damaged.output).toContain('Cannot restore: The backup is damaged');
    expect(fs.existsSync(path.join(scratch, 'elsewhere', 'pglite'))).toBe(false);
  }, 120_000);
});

/** A new, empty database on the lane's PostgreSQL server, and its address. */
async function newDatabase(name: string): Promise<string> {
  const serverUrl = inject('postgresUrl');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return serverUrl.replace(/\/postgres$/, `/${name}`);
}

/** The README's command that starts with this program, in its section on backups. */
function readmeCommand(program: 'pg_dump' | 'pg_restore'): string {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Backups and restore'));
  const line = section.split('\n').find((l) => l.startsWith(`${program} `));
  expect(line, `README: ${program} under Backups and restore`).toBeDefined();
  return line!;
}

/** Runs a README command with PostgreSQL's tools of the lane's version first on the PATH. */
function runCommand(line: string, env: Record<string, string>): void {
  execFileSync('sh', ['-c', line], {
    cwd: scratch,
    env: { ...process.env, ...env, PATH: `${findPostgresBin()}:${process.env.PATH}` },
    stdio: 'pipe',
  });
}

// The README's commands for PostgreSQL: pg_dump while the server runs, pg_restore into a new database.
describe.runIf(process.env.API_TEST_DB === 'postgres')('pg_dump and pg_restore (PostgreSQL, files in the database)', () => {
  it("the dump of a running server's database restores into a new database that serves the same records and files", async () => {
    const suffix = Date.now().toString(36);
    const originalUrl = await newDatabase(`backup_original_${suffix}`);
    const dataDir = path.join(scratch, 'pg-server');
    const server = await startServer(dataDir, originalUrl);
    let before: Awaited<ReturnType<typeof readAsUser>>;
    try {
      before = await readAsUser(server.base, 'admin@demo.test');
      expect(Object.keys(before.documents).length).toBeGreaterThan(0);
      runCommand(readmeCommand('pg_dump'), { DATABASE_URL: originalUrl });
    } finally {
      await server.stop();
    }
    const copyUrl = await newDatabase(`backup_copy_${suffix}`);
    runCommand(readmeCommand('pg_restore'), { NEW_DATABASE_URL: copyUrl });
    expect(await rowCounts('memory://', copyUrl)).toEqual(await rowCounts('memory://', originalUrl));

    const again = await startServer(path.join(scratch, 'pg-copy'), copyUrl);
    try {
      expect(await readAsUser(again.base, 'admin@demo.test')).toEqual(before);
    } finally {
      await again.stop();
    }
  }, 300_000);
});
