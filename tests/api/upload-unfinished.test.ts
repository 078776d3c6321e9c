import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validPersonal } from '../fixtures/journeys';
import { buildApplication, buildLawyer, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';
import { smallPdf, uploadRequest } from './files-helpers';
import { openFds, openFilesIn } from './open-files';

// An upload whose whole body arrives but without the multipart's closing boundary: the request
// timeout never ends it (nothing is left to arrive), so the parser's own verdict must answer it
// (docs/decisions.md 540). The embedded lane keeps files in a local folder, the PostgreSQL lane
// in the database: both stores are covered.

let server: TestServer;
let filesDir: string;
let port: number;
let token: string;
let applicationId: number;
/** A small file arrives with the whole body at once; a large one while the storage is writing. */
const pdfs: Record<'small' | 'large', Buffer> = { small: Buffer.alloc(0), large: Buffer.alloc(0) };

beforeAll(async () => {
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-unfinished-'));
  server = await startTestServer({ filesDir });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  port = (server.app.server.address() as net.AddressInfo).port;
  const lawyer = await buildLawyer(server.db);
  token = await signInAs(server, lawyer);
  applicationId = (
    await buildApplication(server.db, {
      lawyerId: lawyer.id,
      steps: { personal: validPersonal('unfinished.client@example.test') },
    })
  ).id;
  pdfs.small = await smallPdf();
  // Larger than a stored chunk, so the storage has begun its write when the body ends.
  pdfs.large = Buffer.concat([pdfs.small, Buffer.alloc(700 * 1024, 0x20)]);
}, 120_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

const openUploadFiles = () => openFilesIn(filesDir);
/** Every entry in the store, partial writes (`.part` files, incomplete rows) included. */
const stored = async () => (await server.storage().inventory()).map((entry) => entry.name);
const claimsOf = async (key: string) =>
  (await server.rows<{ n: number }>(sql`select count(*)::int as n from idempotency_keys where key = ${key}`))[0]!.n;
const fileRows = async () => (await server.rows<{ n: number }>(sql`select count(*)::int as n from files`))[0]!.n;

/** Sends the upload whose body stops right before its closing boundary; resolves with the raw answer. */
async function sendUnfinished(key: string, size: keyof typeof pdfs): Promise<{ answer: string; ms: number }> {
  const request = uploadRequest({ applicationId, type: 'formE', bytes: pdfs[size], token, headers: { 'Idempotency-Key': key } });
  const boundary = /boundary=(.+)$/.exec(String(request.headers['content-type']))![1]!;
  const closing = `--${boundary}--\r\n`;
  expect(request.payload.subarray(-closing.length).toString('latin1')).toBe(closing);
  // Everything up to the closing delimiter: the file part's bytes and their line break, nothing after.
  const body = request.payload.subarray(0, request.payload.length - closing.length);
  const started = Date.now();
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  let answer = '';
  socket.on('data', (chunk) => {
    answer += chunk.toString('latin1');
    // One answer is all this test reads: the connection is closed once it is whole.
    const [head, rest] = answer.split('\r\n\r\n');
    const length = /content-length: (\d+)/i.exec(head ?? '')?.[1];
    if (rest !== undefined && length && Buffer.byteLength(rest, 'latin1') >= Number(length)) socket.end();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    [
      `POST ${request.url} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Authorization: Bearer ${token}`,
      `Idempotency-Key: ${key}`,
      `Content-Type: ${request.headers['content-type']}`,
      `Content-Length: ${body.length}`,
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(body);
  // A client that never answers would hold the test: give up well after the answer was due.
  const giveUp = setTimeout(() => socket.destroy(), 8_000);
  await closed;
  clearTimeout(giveUp);
  return { answer, ms: Date.now() - started };
}

describe('an upload whose body lacks its closing boundary', () => {
  it.each(['small', 'large'] as const)(
    '(a %s file) is answered 400 badUpload at once, and leaves no partial file, row or open file',
    async (size) => {
      const rowsBefore = await fileRows();
      const key = `unfinished-${size}-${Date.now()}`;
      const { answer, ms } = await sendUnfinished(key, size);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'badUpload' });
      expect(ms).toBeLessThan(4_000);
      await expect.poll(stored, { timeout: 5_000 }).toEqual([]);
      await expect.poll(openUploadFiles, { timeout: 5_000 }).toBe(0);
      expect(await fileRows()).toBe(rowsBefore);

      // The app still answers, and the answer is not kept for the key: the same upload sent whole with it goes through.
      await expect.poll(() => claimsOf(key), { timeout: 5_000 }).toBe(0);
      const whole = await server.call(
        uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token, headers: { 'Idempotency-Key': key } }),
      );
      expect(whole.statusCode, whole.body).toBe(201);
      expect(whole.headers['idempotent-replayed']).toBeUndefined();
      await server.call({ method: 'POST', url: '/api/applications/file/delete', token, payload: { fileKey: whole.json().key } });
    },
    30_000,
  );

  it('thirty of them hold no file descriptor once answered', async () => {
    const baseline = openFds();
    for (let i = 0; i < 30; i += 1) {
      const { answer } = await sendUnfinished(`unfinished-many-${i}-${Date.now()}`, i % 2 ? 'large' : 'small');
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    }
    await expect.poll(stored, { timeout: 10_000 }).toEqual([]);
    await expect.poll(openUploadFiles, { timeout: 10_000 }).toBe(0);
    // Sockets may be added meanwhile by the PostgreSQL pool (at most 10), never one per upload.
    await expect.poll(openFds, { timeout: 10_000 }).toBeLessThanOrEqual(baseline + 12);
    const config = await server.call({ method: 'GET', url: '/api/config' });
    expect(config.statusCode).toBe(200);
  }, 120_000);
});
