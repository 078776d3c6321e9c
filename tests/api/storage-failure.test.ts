import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeUnreferencedFiles } from '../../src/server/files/housekeeping';
import { PostgresFileStorage } from '../../src/server/files/postgres-storage';
import {
  DiskFileStorage,
  MemoryFileStorage,
  newFileKey,
  replaceFileStorage,
  type FileStorage,
} from '../../src/server/files/storage';
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

/**
 * Makes the configured storage fail as a full disk does; returns what undoes it. The local store
 * gets a disk that fails with ENOSPC; PostgreSQL fails each chunk with its own disk_full (53100),
 * after the write has begun, through the real PostgreSQL store.
 */
async function fillTheStorage(): Promise<() => Promise<void>> {
  if (server.config.filesStorage === 'local') {
    const disk = server.storage();
    replaceFileStorage(server.config, server.db, new FullDisk());
    return async () => replaceFileStorage(server.config, server.db, disk);
  }
  await server.rows(sql`create function portal_test_disk_full() returns trigger language plpgsql as $$
    begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`);
  await server.rows(sql`create trigger portal_test_disk_full before insert on stored_file_chunks
    for each row execute function portal_test_disk_full()`);
  return async () => {
    await server.rows(sql`drop trigger portal_test_disk_full on stored_file_chunks`);
    await server.rows(sql`drop function portal_test_disk_full()`);
  };
}

describe('a full or failing disk', () => {
  it('answers 503 storageUnavailable, never 400, keeps no claim, and the retry succeeds once there is room', async () => {
    const headers = { 'Idempotency-Key': `enospc-${Date.now()}` };
    const keysBefore = await server.storage().keys();
    const makeRoom = await fillTheStorage();
    try {
      const full = await server.call(uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token, headers }));
      expect(full.statusCode).toBe(503);
      expect(full.json()).toEqual({ error: 'storageUnavailable' });
      const claims = await server.rows<{ n: number }>(
        sql`select count(*)::int as n from idempotency_keys where key = ${headers['Idempotency-Key']}`,
      );
      expect(claims[0]!.n).toBe(0);
    } finally {
      await makeRoom();
    }
    // Nothing of the failed write stays, not even a partial one.
    expect(await server.storage().keys()).toEqual(keysBefore);
    expect((await server.storage().inventory()).filter((entry) => entry.partial)).toEqual([]);
    const retry = await server.call(uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token, headers }));
    expect(retry.statusCode, retry.body).toBe(201);
    await server.call({ method: 'POST', url: '/api/applications/file/delete', token, payload: { fileKey: retry.json().key } });
  });
});

describe('bytes nothing references', () => {
  it('a refused second file part leaves nothing on disk', async () => {
    const before = await server.storage().keys();
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
    expect(await server.storage().keys()).toEqual(before);
    expect((await server.storage().inventory()).filter((entry) => entry.partial)).toEqual([]);
  });

  /** A store of each kind, with what makes an entry old and what leaves a partial write behind. */
  const stores: {
    name: string;
    open(): Promise<{
      storage: FileStorage;
      age(name: string): Promise<void>;
      leavePartial(key: string): Promise<string>;
      done(): void;
    }>;
  }[] = [
    {
      name: 'on disk',
      async open() {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-sweep-'));
        const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
        return {
          storage: new DiskFileStorage(dir),
          age: async (name) => fs.utimesSync(path.join(dir, ...name.split('/')), old, old),
          async leavePartial(key) {
            const partial = `${key.replace('.pdf', '')}.pdf.0123456789ab.part`;
            fs.writeFileSync(path.join(dir, ...partial.split('/')), 'half a file');
            return partial;
          },
          done: () => fs.rmSync(dir, { recursive: true, force: true }),
        };
      },
    },
    {
      // The lane's own database: PGlite on the embedded lane, the PostgreSQL server on api-pg.
      name: 'in PostgreSQL',
      async open() {
        const storage = new PostgresFileStorage(server.db);
        return {
          storage,
          async age(name) {
            const key = name.endsWith('.part') ? name.slice(0, name.indexOf('.pdf.') + 4) : name;
            await server.rows(sql`update stored_files set written_at = now() - interval '2 hours' where key = ${key}`);
          },
          async leavePartial(key) {
            // What a process that died mid-write leaves: a row that is not complete, with a chunk.
            const [row] = await server.rows<{ id: string }>(sql`insert into stored_files (key) values (${key}) returning id`);
            await server.rows(
              sql`insert into stored_file_chunks (stored_file_id, chunk_no, bytes) values (${row!.id}, 0, ${Buffer.from('half a file')})`,
            );
            return (await storage.inventory()).find((entry) => entry.partial && entry.name.startsWith(key))!.name;
          },
          done: () => undefined,
        };
      },
    },
  ];

  for (const store of stores)
    it(`housekeeping ${store.name} removes old partial writes and unreferenced files, and keeps referenced and recent ones`, async () => {
      const { storage, age, leavePartial, done } = await store.open();
      try {
        const before = await storage.keys();
        const upload = await server.call(uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token }));
        expect(upload.statusCode).toBe(201);
        const referenced = upload.json().key as string;
        const orphan = newFileKey();
        const recentOrphan = newFileKey();
        for (const key of [referenced, orphan, recentOrphan]) await storage.put(key, await smallPdf());
        const partial = await leavePartial(orphan);
        for (const name of [referenced, orphan, partial]) await age(name);

        const removed = await removeUnreferencedFiles(server.db, storage);
        expect(removed.sort()).toEqual([orphan, partial].sort());
        expect((await storage.keys()).filter((key) => !before.includes(key)).sort()).toEqual(
          [referenced, recentOrphan].filter((key) => !before.includes(key)).sort(),
        );
        expect((await storage.inventory()).filter((entry) => entry.partial)).toEqual([]);
        await server.call({ method: 'POST', url: '/api/applications/file/delete', token, payload: { fileKey: referenced } });
        await storage.remove(recentOrphan);
      } finally {
        done();
      }
    });
});
