import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { isDatabaseClosing, openDatabase, queryRows, ungated } from '../../src/server/db/connection';
import { runAsRequestWork } from '../../src/server/db/request-work';
import { PostgresFileStorage } from '../../src/server/files/postgres-storage';
import { idempotencyClaimsHeld, releaseHeldClaims } from '../../src/server/http/idempotency';
import { buildApplication, buildLawyer, buildUser, FACTORY_PASSWORD, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';
import { buildSigningCase, type SigningCase } from './esign-fixtures';
import { multipart, smallPdf } from './files-helpers';
import { validPersonal } from '../fixtures/journeys';

/**
 * SIGTERM to a real, compiled server process (the esbuild build `npm run build` makes, into a folder
 * of this test's own) while an upload and a signing are in flight (docs/decisions.md 565-566). The
 * embedded database's DATA_DIR is what a restarted process finds again, so this runs on the
 * embedded lane; on PostgreSQL the same code closes the same gate on its pool.
 */
const root = path.resolve(import.meta.dirname, '../..');
const SHUTDOWN_TIMEOUT_MS = 1_500;
/** /readyz answers 503 this long before the listener closes, as a load balancer would be given. */
const SHUTDOWN_DRAIN_MS = 1_000;
const children: ChildProcess[] = [];
let buildDir: string;
let dataDir: string;
let filesDir: string;

interface Server {
  child: ChildProcess;
  port: number;
  output(): string;
  exited: Promise<number | null>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(extraEnv: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(buildDir, 'main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      FILES_DIR: filesDir,
      SEED_DEMO: '0',
      STATIC_DIR: '/nonexistent',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      SHUTDOWN_DRAIN_MS: String(SHUTDOWN_DRAIN_MS),
      // Long enough that only the shutdown can end the stalled upload below.
      REQUEST_TIMEOUT_MS: '120000',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server = { child, port, output: () => output, exited };
  await expect.poll(() => output, { timeout: 60_000, interval: 100 }).toMatch(/Portal ready|Error|Cannot start/);
  expect(output).toContain('Portal ready');
  return server;
}

interface Answer {
  status: number;
  body: string;
}

function request(
  server: Server,
  options: { method: string; url: string; token?: string; headers?: Record<string, string>; body?: Buffer | object },
): Promise<Answer> {
  const body =
    options.body === undefined
      ? undefined
      : Buffer.isBuffer(options.body)
        ? options.body
        : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (body && !Buffer.isBuffer(options.body)) headers['content-type'] = 'application/json';
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, method: options.method, path: options.url, headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function signIn(server: Server, email: string): Promise<string> {
  const res = await request(server, { method: 'POST', url: '/api/auth', body: { login: email, password: FACTORY_PASSWORD } });
  expect(res.status, res.body).toBe(200);
  return JSON.parse(res.body).token as string;
}

/** Every file below the files folder, partial writes included. */
function filesOnDisk(): string[] {
  if (!fs.existsSync(filesDir)) return [];
  return (fs.readdirSync(filesDir, { recursive: true }) as string[])
    .filter((name) => fs.statSync(path.join(filesDir, name)).isFile())
    .map((name) => name.split(path.sep).join('/'));
}

let upload: { applicationId: number; lawyerEmail: string };
let silentTsa: net.Server;
let silentTsaPort: number;
let tsaAsked = 0;
let signing: SigningCase & { adminEmail: string };

beforeAll(async () => {
  if (process.env.API_TEST_DB === 'postgres') return;
  silentTsa = net.createServer((socket) => {
    tsaAsked++;
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silentTsa.listen(0, '127.0.0.1', resolve));
  silentTsaPort = (silentTsa.address() as net.AddressInfo).port;
  const builds = path.join(root, '.tmp', 'server-builds');
  fs.mkdirSync(builds, { recursive: true });
  buildDir = fs.mkdtempSync(path.join(builds, 'shutdown-'));
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', buildDir], { cwd: root, encoding: 'utf8' });
  expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-shutdown-'));
  filesDir = path.join(dataDir, 'files');

  // The rows, written before any server holds the data folder; sign-ins happen over HTTP later.
  const database = await openDatabase({ dataDir });
  try {
    const db = database.db;
    const lawyer = await buildLawyer(db);
    const application = await buildApplication(db, {
      lawyerId: lawyer.id,
      steps: { personal: validPersonal('shutdown.client@example.test') },
    });
    upload = { applicationId: application.id, lawyerEmail: lawyer.email };
    const admin = await buildUser(db, { role: 'admin' });
    const offline = { db, rows: <T>(query: never) => queryRows<T>(db, query), signIn: async (login: string) => login };
    signing = { ...(await buildSigningCase(offline as never)), adminEmail: admin.email };
  } finally {
    await database.close();
  }
}, 180_000);

afterAll(() => {
  silentTsa?.close();
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  if (buildDir) fs.rmSync(buildDir, { recursive: true, force: true });
});

describe.skipIf(process.env.API_TEST_DB === 'postgres')('graceful shutdown of a real server process', () => {
  it('on SIGTERM ends within its deadline; an upload and a signing in flight complete or fail cleanly, and their retries succeed once', async () => {
    // A time-stamping authority that never answers: the signing is still sealing at the deadline.
    const first = await startServer({ ESIGN_TSA_URL: `http://127.0.0.1:${silentTsaPort}/tsa`, ESIGN_TSA_TIMEOUT_MS: '60000' });
    const admin = await signIn(first, signing.adminEmail);
    const client = await signIn(first, signing.clientEmail);
    const lawyer = await signIn(first, upload.lawyerEmail);

    // The signing: staff prepare and notify, the client opens the page and asks for the code.
    for (const [url, body] of [
      ['/api/docusign/init', { applicationId: signing.applicationId, state: 'esignPrepared' }],
      ['/api/docusign/notify', { applicationId: signing.applicationId }],
    ] as const) {
      const res = await request(first, { method: 'POST', url, token: admin, body });
      expect(res.status, res.body).toBe(200);
    }
    const opened = await request(first, {
      method: 'POST',
      url: '/api/docusign/sign',
      token: client,
      body: { applicationId: signing.applicationId },
    });
    expect(opened.status, opened.body).toBe(200);
    const signingToken = (JSON.parse(opened.body).envelopUrl as string).slice('/esign/'.length);
    expect(
      (await request(first, { method: 'POST', url: `/api/esign/${signingToken}/code`, token: client, body: {} })).status,
    ).toBe(200);
    const mailbox = JSON.parse((await request(first, { method: 'GET', url: '/api/dev/mailbox' })).body) as {
      emails: { to: string; subject: string; text: string }[];
    };
    const codeEmail = mailbox.emails.find(
      (e) => e.to === signing.clientEmail && e.subject === 'Your code to sign your documents',
    );
    const code = /one-time code is (\d{6})/.exec(codeEmail!.text)![1]!;

    // The upload: its file part half sent, then the client stalls (a slow phone on a train).
    const pdf = await smallPdf('In flight at shutdown');
    const uploadKey = randomUUID();
    const body = multipart([
      { name: 'applicationId', value: String(upload.applicationId) },
      { name: 'type', value: 'formE' },
      { name: 'file', value: Buffer.concat([pdf, randomBytes(256 * 1024)]), fileName: 'form-e.pdf' },
    ]);
    const stalled = new Promise<{ status?: number; error?: string }>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port: first.port,
        method: 'POST',
        path: '/api/applications/file/upload',
        agent: false,
        headers: {
          ...body.headers,
          'content-length': String(body.payload.length),
          authorization: `Bearer ${lawyer}`,
          'idempotency-key': uploadKey,
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode }));
        res.on('error', (error) => resolve({ error: error.message }));
      });
      req.on('error', (error) => resolve({ error: error.message }));
      req.write(body.payload.subarray(0, Math.floor(body.payload.length / 2)));
    });
    // The server is writing it: its partial file is on disk.
    await expect.poll(() => filesOnDisk().some((name) => name.endsWith('.part')), { timeout: 10_000 }).toBe(true);

    // The signing goes in, and SIGTERM follows while it runs.
    const signed = request(first, {
      method: 'POST',
      url: `/api/esign/${signingToken}/sign`,
      token: client,
      body: { code, agree: true },
    }).then(
      (answer) => answer,
      (error: Error) => ({ status: 0, body: error.message }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const killedAt = Date.now();
    first.child.kill('SIGTERM');

    // While it drains, a load balancer's check sees 503 on a new connection, and the process still answers.
    await expect
      .poll(async () => (await request(first, { method: 'GET', url: '/readyz' })).status, {
        timeout: SHUTDOWN_DRAIN_MS / 2,
        interval: 50,
      })
      .toBe(503);
    expect(JSON.parse((await request(first, { method: 'GET', url: '/readyz' })).body)).toEqual({ status: 'shuttingDown' });
    expect((await request(first, { method: 'GET', url: '/healthz' })).status).toBe(200);

    const exitCode = await Promise.race([
      first.exited,
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 15_000)),
    ]);
    expect(exitCode, first.output()).toBe(0);
    // The deadline, the settling of what was ended and the database's close: well within a few seconds.
    expect(Date.now() - killedAt).toBeLessThan(SHUTDOWN_DRAIN_MS + SHUTDOWN_TIMEOUT_MS + 6_000);
    expect(first.output()).toMatch(/still busy after 1500 ms are ended/);

    // The stalled upload failed (its connection was ended), never answered as stored.
    const uploadOutcome = await stalled;
    expect(uploadOutcome.status === undefined || uploadOutcome.status >= 500, JSON.stringify(uploadOutcome)).toBe(true);
    // The signing, still waiting for the authority at the deadline, was ended: a failure the client retries.
    const signOutcome = await signed;
    expect(signOutcome.status, signOutcome.body).toBe(0);
    expect(tsaAsked).toBeGreaterThan(0);
    // Nothing half-written on disk: no partial file.
    expect(filesOnDisk().filter((name) => name.endsWith('.part'))).toEqual([]);

    // The same client retries on a restarted server, with the same idempotency key: both succeed.
    const second = await startServer();
    const lawyerAgain = await signIn(second, upload.lawyerEmail);
    const clientAgain = await signIn(second, signing.clientEmail);
    const retried = await request(second, {
      method: 'POST',
      url: '/api/applications/file/upload',
      token: lawyerAgain,
      headers: { ...body.headers, 'idempotency-key': uploadKey },
      body: body.payload,
    });
    expect(retried.status, retried.body).toBe(201);
    const signedAgain = await request(second, {
      method: 'POST',
      url: `/api/esign/${signingToken}/sign`,
      token: clientAgain,
      body: { code, agree: true },
    });
    expect(signedAgain.status, signedAgain.body).toBe(200);
    // A second try of the same upload is the first one's answer again, not a second file.
    const replayed = await request(second, {
      method: 'POST',
      url: '/api/applications/file/upload',
      token: lawyerAgain,
      headers: { ...body.headers, 'idempotency-key': uploadKey },
      body: body.payload,
    });
    expect(replayed.status).toBe(201);
    expect(JSON.parse(replayed.body).key).toBe(JSON.parse(retried.body).key);

    // A clean stop with nothing in flight is quick.
    const stopAt = Date.now();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(Date.now() - stopAt).toBeLessThan(SHUTDOWN_DRAIN_MS + SHUTDOWN_TIMEOUT_MS);

    // What the database holds and what the disk holds are the same files, each once.
    const database = await openDatabase({ dataDir });
    try {
      const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(database.db, query);
      const uploads = await rows<{ key: string }>(
        sql`select key from files where application_id = ${upload.applicationId} and type = 'formE'`,
      );
      expect(uploads).toHaveLength(1);
      const envelopes = await rows<{ status: string }>(
        sql`select status from envelopes where application_id = ${signing.applicationId}`,
      );
      expect(envelopes.map((e) => e.status)).toEqual(['signed']);
      const loansMade = await rows<{ n: number }>(
        sql`select count(*)::int as n from loans where application_id = ${signing.applicationId}`,
      );
      expect(loansMade[0]!.n).toBe(1);
      const signedCopies = await rows<{ n: number }>(
        sql`select count(*)::int as n from envelope_documents d join envelopes e on e.id = d.envelope_id
            where e.application_id = ${signing.applicationId} and d.signed_file_id is not null`,
      );
      const documents = await rows<{ n: number }>(
        sql`select count(*)::int as n from envelope_documents d join envelopes e on e.id = d.envelope_id where e.application_id = ${signing.applicationId}`,
      );
      expect(signedCopies[0]!.n).toBe(documents[0]!.n);
      const keys = (await rows<{ key: string }>(sql`select key from files`)).map((row) => row.key).sort();
      expect(filesOnDisk().sort()).toEqual(keys);
      const openClaims = await rows<{ n: number }>(
        sql`select count(*)::int as n from idempotency_keys where status_code is null`,
      );
      expect(openClaims[0]!.n).toBe(0);
    } finally {
      await database.close();
    }
  }, 180_000);
});

/**
 * What the shutdown does at its deadline, on both databases: the app's work is refused (a statement
 * fails, a transaction rolls back even at its commit), while a claim's own statements still go
 * through, so the claims of requests still running are released.
 */
describe('the database at a shutdown deadline', () => {
  let server: TestServer;
  let applicationId: number;
  let lawyerToken: string;
  beforeAll(async () => {
    server = await startTestServer();
    const lawyer = await buildLawyer(server.db);
    lawyerToken = await signInAs(server, lawyer);
    applicationId = (
      await buildApplication(server.db, { lawyerId: lawyer.id, steps: { personal: validPersonal('gate.client@example.test') } })
    ).id;
  }, 120_000);
  afterAll(async () => server?.close());

  it('refuses statements and rolls back a transaction refused at its commit; releases the claims of requests still running', async () => {
    const caseRef = async () =>
      (await ungated(server.db).execute(sql`select case_ref from applications where id = ${applicationId}`)) as unknown as {
        rows: { case_ref: string | null }[];
      };
    const before = (await caseRef()).rows[0]!.case_ref;
    // The in-memory store is the worker's, shared with other files' servers: only this test's keys count.
    // Partial writes included; read past the gate on PostgreSQL, whose store is the database.
    const stored = async () => {
      const store = server.config.filesStorage === 'postgres' ? new PostgresFileStorage(ungated(server.db)) : server.storage();
      return (await store.inventory()).map((entry) => entry.name).sort();
    };
    const keysBefore = await stored();

    // An upload whose file is still arriving holds its idempotency claim.
    const pdf = await smallPdf('Still arriving');
    const body = multipart([
      { name: 'applicationId', value: String(applicationId) },
      { name: 'type', value: 'formE' },
      { name: 'file', value: pdf, fileName: 'form-e.pdf' },
    ]);
    const stream = new PassThrough();
    stream.write(body.payload.subarray(0, body.payload.length - 200));
    const key = randomUUID();
    const answer = server.call({
      method: 'POST',
      url: '/api/applications/file/upload',
      token: lawyerToken,
      headers: { ...body.headers, 'idempotency-key': key },
      payload: stream,
    });
    await expect.poll(() => idempotencyClaimsHeld(server.db), { timeout: 10_000 }).toBe(1);

    // A transaction whose statements all ran is refused at its commit, and rolls back.
    const refusedAtCommit = server.db.transaction(async (tx) => {
      await tx.execute(sql`update applications set case_ref = 'WRITTEN-AT-SHUTDOWN' where id = ${applicationId}`);
      server.refuseWork();
    });
    await expect(refusedAtCommit).rejects.toSatisfy(isDatabaseClosing);
    expect((await caseRef()).rows[0]!.case_ref).toBe(before);
    await expect(server.db.execute(sql`select 1`)).rejects.toSatisfy(isDatabaseClosing);

    // The claim is released by the shutdown; the request then ends, and nothing of it stays.
    expect(await releaseHeldClaims(server.db)).toBe(1);
    const claims = (await ungated(server.db).execute(
      sql`select count(*)::int as n from idempotency_keys where key = ${key}`,
    )) as unknown as {
      rows: { n: number }[];
    };
    expect(claims.rows[0]!.n).toBe(0);
    stream.end(body.payload.subarray(body.payload.length - 200));
    const res = await answer;
    // Refused by the gate: an answer to try again, never a 500 (on PostgreSQL the file's own store
    // is the database, so the store's refusal answers first).
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toEqual({ error: server.config.filesStorage === 'postgres' ? 'storageUnavailable' : 'unavailable' });
    const fileRows = (await ungated(server.db).execute(
      sql`select count(*)::int as n from files where application_id = ${applicationId}`,
    )) as unknown as {
      rows: { n: number }[];
    };
    expect(fileRows.rows[0]!.n).toBe(0);
    expect(await stored()).toEqual(keysBefore);
  });

  it('lets a request whose write committed finish its answer past the gate; one that committed nothing is refused', async () => {
    const own = await startTestServer();
    try {
      const inRequest = <T>(work: () => Promise<T>) =>
        new Promise<T>((resolve, reject) => runAsRequestWork(() => void work().then(resolve, reject)));
      // Written, then the deadline passes before the answer is read back (a created row's answer).
      const firmName = await inRequest(async () => {
        await own.db.transaction(async (tx) => {
          await tx.execute(sql`insert into firms (name) values ('Committed Before The Deadline LLP')`);
        });
        own.refuseWork();
        const read = (await own.db.execute(sql`select name from firms where name like 'Committed Before%'`)) as unknown as {
          rows: { name: string }[];
        };
        return read.rows[0]?.name;
      });
      expect(firmName).toBe('Committed Before The Deadline LLP');
      // Another request, with nothing committed, has its work refused.
      await expect(inRequest(() => own.db.execute(sql`select 1`))).rejects.toSatisfy(isDatabaseClosing);
    } finally {
      await own.close();
    }
  });
});
