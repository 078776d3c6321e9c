import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { validPersonal } from '../fixtures/journeys';
import { buildApplication, buildLawyer, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';
import { smallPdf, uploadRequest } from './files-helpers';
import { openFds, openFilesIn } from './open-files';

let server: TestServer;
let filesDir: string;
let port: number;
let token: string;
let applicationId: number;
let bigPdf: Buffer;

const timeouts = {
  ...loadConfig({ NODE_ENV: 'test' }).timeouts,
  requestTimeoutMs: 1_500,
  headersTimeoutMs: 1_000,
  connectionTimeoutMs: 3_000,
};

beforeAll(async () => {
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-abort-'));
  server = await startTestServer({ filesDir, timeouts });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  port = (server.app.server.address() as net.AddressInfo).port;
  const lawyer = await buildLawyer(server.db);
  token = await signInAs(server, lawyer);
  applicationId = (
    await buildApplication(server.db, { lawyerId: lawyer.id, steps: { personal: validPersonal('files.client@example.test') } })
  ).id;
  // Large enough that the storage has opened its partial file before the body is cut.
  bigPdf = Buffer.concat([await smallPdf(), Buffer.alloc(2 * 1024 * 1024, 0x20)]);
}, 120_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

const openUploadFiles = () => openFilesIn(filesDir);
const onDisk = async () => (await server.storage().inventory()).map((entry) => entry.name);
const claimsOf = async (key: string) =>
  (await server.rows<{ n: number }>(sql`select count(*)::int as n from idempotency_keys where key = ${key}`))[0]!.n;

/** The upload as raw HTTP: headers and the first `sendBytes` of its body; the socket stays open. */
async function startUpload(
  key: string,
  sendBytes: (total: number) => number,
): Promise<{ socket: net.Socket; closed: Promise<string>; rest: Buffer }> {
  const request = uploadRequest({ applicationId, type: 'formE', bytes: bigPdf, token, headers: { 'Idempotency-Key': key } });
  const head = [
    `POST ${request.url} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Authorization: Bearer ${token}`,
    `Idempotency-Key: ${key}`,
    `Content-Type: ${request.headers['content-type']}`,
    `Content-Length: ${request.payload.length}`,
    '',
    '',
  ].join('\r\n');
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(answer)));
  const cut = sendBytes(request.payload.length);
  socket.write(head);
  socket.write(request.payload.subarray(0, cut));
  return { socket, closed, rest: request.payload.subarray(cut) };
}

describe('uploads whose body never fully arrives', () => {
  it('end, and release their file descriptor, partial file and idempotency claim; the retry with the key works', async () => {
    const baseline = openFds();
    const keys = Array.from({ length: 30 }, (_, i) => `dropped-${i}-${Date.now()}`);
    for (const key of keys) {
      const { socket } = await startUpload(key, (total) => Math.floor(total / 2));
      // The server has taken the claim and is writing the bytes when the client goes.
      await expect.poll(() => claimsOf(key), { timeout: 5_000 }).toBe(1);
      socket.destroy();
    }
    await expect
      .poll(async () => (await Promise.all(keys.map(claimsOf))).reduce((a, b) => a + b, 0), { timeout: 10_000 })
      .toBe(0);
    await expect.poll(onDisk, { timeout: 10_000 }).toEqual([]);
    await expect.poll(openUploadFiles, { timeout: 10_000 }).toBe(0);
    // Sockets may be added meanwhile by the PostgreSQL pool (at most 10), never one per dropped upload.
    await expect.poll(openFds, { timeout: 10_000 }).toBeLessThanOrEqual(baseline + 12);

    const retry = await server.call(
      uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token, headers: { 'Idempotency-Key': keys[0]! } }),
    );
    expect(retry.statusCode, retry.body).toBe(201);
    const replay = await server.call(
      uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token, headers: { 'Idempotency-Key': keys[0]! } }),
    );
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(retry.json().id);
    await server.call({ method: 'POST', url: '/api/applications/file/delete', token, payload: { fileKey: retry.json().key } });
  }, 120_000);

  it('a body sent a byte at a time is cut off at the request timeout, and leaves nothing behind', async () => {
    const key = `slow-${Date.now()}`;
    const started = Date.now();
    const { socket, closed, rest } = await startUpload(key, () => 1024);
    let sent = 0;
    const drip = setInterval(() => {
      if (!socket.destroyed && sent < rest.length) socket.write(rest.subarray(sent, ++sent));
    }, 200);
    try {
      const answer = await closed;
      // Never idle (a byte every 200 ms), still cut off by REQUEST_TIMEOUT_MS (1.5 s here).
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(answer).not.toMatch(/^HTTP\/1\.1 20/);
    } finally {
      clearInterval(drip);
      socket.destroy();
    }
    await expect.poll(() => claimsOf(key), { timeout: 5_000 }).toBe(0);
    await expect.poll(onDisk, { timeout: 5_000 }).toEqual([]);
  }, 30_000);

  it('a client that sends part of its headers and falls silent is cut off too', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.on('error', () => undefined);
    // Read what the server says (its 408), or the end of the connection is never seen.
    socket.resume();
    const started = Date.now();
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(`GET /api/config HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    await closed;
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 30_000);
});

describe('a claim left by a crashed process', () => {
  it('blocks its retries only for the short lease, then the retry takes it over', async () => {
    const userId = (await server.call({ method: 'GET', url: '/api/auth', token })).json().id as number;
    // What an upload's claim looks like (a multipart body is not part of the hash), left without an answer.
    const hash = createHash('sha256').update('POST\n/api/applications/file/upload\n').digest('hex');
    const plant = (key: string, age: string) =>
      server.rows(sql`insert into idempotency_keys (user_id, key, method, path, request_hash, created_at)
        values (${userId}, ${key}, 'POST', '/api/applications/file/upload', ${hash}, now() - ${age}::interval)`);
    const upload = async (key: string) =>
      server.call(
        uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token, headers: { 'Idempotency-Key': key } }),
      );

    await plant('crashed-recently', '10 seconds');
    const waiting = await upload('crashed-recently');
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json()).toEqual({ error: 'inProgress' });

    // Two minutes: past the 60 s lease, well within the quarter of an hour it used to take.
    await plant('crashed-earlier', '2 minutes');
    const takenOver = await upload('crashed-earlier');
    expect(takenOver.statusCode, takenOver.body).toBe(201);
    await server.call({
      method: 'POST',
      url: '/api/applications/file/delete',
      token,
      payload: { fileKey: takenOver.json().key },
    });
  });
});
