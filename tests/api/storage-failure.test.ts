import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeUnreferencedFiles } from '../../src/server/files/housekeeping';
import { DiskFileStorage, MemoryFileStorage, fileStorage, newFileKey, useFileStorage } from '../../src/server/files/storage';
import { validPersonal } from '../fixtures/journeys';
import { buildApplication, buildLawyer, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';
import { multipart, smallPdf, uploadRequest } from './files-helpers';

/** A disk that is full: it reads what it is given, then fails as Node reports ENOSPC. */
class FullDisk extends MemoryFileStorage {
  override async put(_key: string, source: Readable | Uint8Array): Promise<void> {
    if ('resume' in source) for await (const _chunk of source);
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  }
}

let server: TestServer;
let token: string;
let applicationId: number;
let filesDir: string;

beforeAll(async () => {
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-storage-'));
  server = await startTestServer({ filesDir });
  const lawyer = await buildLawyer(server.db);
  token = await signInAs(server, lawyer);
  applicationId = (
    await buildApplication(server.db, { lawyerId: lawyer.id, steps: { personal: validPersonal('files.client@example.test') } })
  ).id;
}, 120_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

describe('a full or failing disk', () => {
  it('answers 503 storageUnavailable, never 400, keeps no claim, and the retry succeeds once there is room', async () => {
    const disk = fileStorage(filesDir);
    useFileStorage(filesDir, new FullDisk());
    const headers = { 'Idempotency-Key': `enospc-${Date.now()}` };
    try {
      const full = await server.call(uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token, headers }));
      expect(full.statusCode).toBe(503);
      expect(full.json()).toEqual({ error: 'storageUnavailable' });
      const claims = await server.rows<{ n: number }>(
        sql`select count(*)::int as n from idempotency_keys where key = ${headers['Idempotency-Key']}`,
      );
      expect(claims[0]!.n).toBe(0);
    } finally {
      useFileStorage(filesDir, disk);
    }
    const retry = await server.call(uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token, headers }));
    expect(retry.statusCode, retry.body).toBe(201);
    await server.call({ method: 'POST', url: '/api/applications/file/delete', token, payload: { fileKey: retry.json().key } });
  });
});

describe('bytes nothing references', () => {
  it('a refused second file part leaves nothing on disk', async () => {
    const before = await fileStorage(filesDir).keys();
    const body = multipart([
      { name: 'applicationId', value: String(applicationId) },
      { name: 'type', value: 'formE' },
      { name: 'file', value: await smallPdf(), fileName: 'one.pdf' },
      { name: 'file', value: await smallPdf(), fileName: 'two.pdf' },
    ]);
    const res = await server.call({
      method: 'POST',
      url: '/api/applications/file/upload',
      token,
      payload: body.payload,
      headers: body.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(await fileStorage(filesDir).keys()).toEqual(before);
  });

  it('housekeeping removes old partial writes and unreferenced files, and keeps referenced and recent ones', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-sweep-'));
    try {
      const storage = new DiskFileStorage(dir);
      const upload = await server.call(uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token }));
      expect(upload.statusCode).toBe(201);
      const referenced = upload.json().key as string;
      const orphan = newFileKey();
      const recentOrphan = newFileKey();
      for (const key of [referenced, orphan, recentOrphan]) await storage.put(key, await smallPdf());
      const partial = `${orphan.replace('.pdf', '')}.pdf.0123456789ab.part`;
      fs.writeFileSync(path.join(dir, ...partial.split('/')), 'half a file');
      const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
      for (const name of [referenced, orphan, partial]) fs.utimesSync(path.join(dir, ...name.split('/')), old, old);

      const removed = await removeUnreferencedFiles(server.db, storage);
      expect(removed.sort()).toEqual([orphan, partial].sort());
      expect((await storage.keys()).sort()).toEqual([referenced, recentOrphan].sort());
      await server.call({ method: 'POST', url: '/api/applications/file/delete', token, payload: { fileKey: referenced } });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
