import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection';
import { PostgresFileStorage } from '../../src/server/files/postgres-storage';
import { DiskFileStorage, newFileKey } from '../../src/server/files/storage';
import { validPersonal } from '../fixtures/journeys';
import { FACTORY_PASSWORD, buildApplication, buildLawyer, buildUser } from './factories';
import { smallPdf, uploadRequest } from './files-helpers';

const root = path.resolve(import.meta.dirname, '../..');
const postgres = process.env.API_TEST_DB === 'postgres';

interface Server {
  child: ChildProcess;
  url: string;
  filesDir: string;
  output(): string;
}

const servers: Server[] = [];
const folders: string[] = [];
let databaseUrl: string;
let dropDatabase = async () => {};
let database: DatabaseHandle | undefined;

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

/**
 * A real server process (npx tsx src/server/main.ts) on the shared database, with a data folder
 * and a files folder of its own: the two processes share no disk, as two machines would not.
 */
async function startServer(dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-machine-'))): Promise<Server> {
  folders.push(dataDir);
  const filesDir = path.join(dataDir, 'files');
  const port = await freePort();
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      FILES_DIR: filesDir,
      SEED_DEMO: '0',
      STATIC_DIR: '/nonexistent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const server = { child, url: `http://127.0.0.1:${port}`, filesDir, output: () => output };
  servers.push(server);
  await expect.poll(() => output, { timeout: 90_000, interval: 200 }).toMatch(/Portal ready|Error|Cannot start/);
  expect(output).toContain('Portal ready');
  expect(output).toContain('files: in PostgreSQL');
  return server;
}

/** `npm run files:to-postgres` as an operator runs it, with the server's settings. */
function copyToPostgres(dataDir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['scripts/files-to-postgres.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      FILES_DIR: path.join(dataDir, 'files'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

async function signIn(server: Server, email: string): Promise<string> {
  const res = await fetch(`${server.url}/api/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: email, password: FACTORY_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** Everything below a folder (a file the server left on its own disk would show here). */
function filesBelow(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => fs.statSync(path.join(dir, name)).isFile());
}

beforeAll(async () => {
  if (!postgres) return;
  const serverUrl = inject('postgresUrl');
  const name = `machines_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  databaseUrl = serverUrl.replace(/\/postgres$/, `/${name}`);
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
}, 60_000);

afterAll(async () => {
  for (const { child } of servers) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await database?.close();
  await dropDatabase();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

// Two machines behind a load balancer: each process reaches the files through PostgreSQL (decision 350).
describe.skipIf(!postgres)('two server processes on one PostgreSQL database, sharing no disk', () => {
  it('a PDF uploaded through one downloads byte-identical through the other', async () => {
    const [first, second] = [await startServer(), await startServer()];
    database = await openDatabase({ databaseUrl, dataDir: 'memory://' });
    const lawyer = await buildLawyer(database.db);
    const admin = await buildUser(database.db, { role: 'admin' });
    const application = await buildApplication(database.db, {
      lawyerId: lawyer.id,
      steps: { personal: validPersonal('two.machines@example.test') },
    });
    // Several chunks' worth (the store keeps 512 KB chunks), with bytes no two chunks share.
    const pdf = Buffer.concat([await smallPdf('Form E through the first machine'), randomBytes(3 * 1024 * 1024 + 12_345)]);

    const upload = uploadRequest({ applicationId: application.id, type: 'formE', bytes: pdf, token: '' });
    const uploaded = await fetch(`${first.url}${upload.url}`, {
      method: 'POST',
      headers: { ...upload.headers, authorization: `Bearer ${await signIn(first, lawyer.email)}` },
      body: new Uint8Array(upload.payload),
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const record = (await uploaded.json()) as { url: string; size: number };
    expect(record.size).toBe(pdf.length);

    // The other machine, another account: the download link, then the bytes as they stream.
    const link = await fetch(`${second.url}${record.url}`, {
      headers: { authorization: `Bearer ${await signIn(second, admin.email)}` },
    });
    expect(link.status).toBe(200);
    const download = await fetch(`${second.url}${((await link.json()) as { url: string }).url}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-length')).toBe(String(pdf.length));
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);

    // Neither machine kept the file on its own disk.
    expect(filesBelow(first.filesDir)).toEqual([]);
    expect(filesBelow(second.filesDir)).toEqual([]);
  }, 180_000);

  it('files left on a disk from before are named at start, and one command copies them into the database', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-before-'));
    const key = newFileKey();
    const pdf = Buffer.concat([await smallPdf('Kept on disk before'), randomBytes(700_000)]);
    await new DiskFileStorage(path.join(dataDir, 'files')).put(key, pdf);
    const server = await startServer(dataDir);
    expect(server.output()).toContain('1 file(s) in');
    expect(server.output()).toContain('npm run files:to-postgres');

    const first = await copyToPostgres(dataDir);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('Copied 1 file(s); 0 were in the database already.');
    database ??= await openDatabase({ databaseUrl, dataDir: 'memory://' });
    const stream = (await new PostgresFileStorage(database.db).open(key))!;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(pdf)).toBe(true);
    const again = await copyToPostgres(dataDir);
    expect(again.output).toContain('Copied 0 file(s); 1 were in the database already.');
  }, 180_000);
});
