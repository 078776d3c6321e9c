import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { copyFiles } from '../../src/server/files/copy-files';
import { CHUNK_BYTES, PostgresFileStorage } from '../../src/server/files/postgres-storage';
import { DiskFileStorage, MemoryFileStorage, newFileKey, type FileStorage } from '../../src/server/files/storage';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-store-'));
  server = await startTestServer({ filesDir: dir });
}, 120_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function readAll(stream: Readable): Promise<{ bytes: Buffer; largest: number }> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return { bytes: Buffer.concat(chunks), largest: Math.max(0, ...chunks.map((c) => c.length)) };
}

/** A stream that gives `bytes` in pieces of 64 KB (as a multipart part does), then fails if told to. */
function arriving(bytes: Buffer, failAfter?: number): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 64 * 1024) pieces.push(bytes.subarray(at, at + 64 * 1024));
  let sent = 0;
  return new Readable({
    read() {
      if (failAfter !== undefined && sent >= failAfter) return this.destroy(new Error('the client went away'));
      const piece = pieces.shift();
      if (!piece) return this.push(null);
      sent += piece.length;
      this.push(piece);
    },
  });
}

const pdfBytes = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);

// The same behaviour from every store: what the local one promised, PostgreSQL keeps (decision 350).
const stores: { name: string; make: () => FileStorage }[] = [
  { name: 'in memory', make: () => new MemoryFileStorage() },
  { name: 'on disk', make: () => new DiskFileStorage(fs.mkdtempSync(path.join(dir, 'disk-'))) },
  // On the lane's database: PGlite on the embedded lane, the PostgreSQL server on api-pg.
  { name: 'in PostgreSQL', make: () => new PostgresFileStorage(server.db) },
];

describe.each(stores)('a file store $name', ({ make }) => {
  it('keeps what is put under its key, streams it back byte for byte, and lists it', async () => {
    const storage = make();
    const key = newFileKey();
    const bytes = pdfBytes(2_500_000);
    await storage.put(key, arriving(bytes));
    expect((await readAll((await storage.open(key))!)).bytes.equals(bytes)).toBe(true);
    expect(await storage.keys()).toContain(key);
    expect((await storage.inventory()).find((entry) => entry.name === key)).toMatchObject({ partial: false });
    // Bytes given whole are kept too (the contract documents and signed copies are made in memory).
    const small = newFileKey();
    await storage.put(small, new Uint8Array(pdfBytes(1000)));
    expect((await readAll((await storage.open(small))!)).bytes.length).toBe(1000);
  });

  it('replaces what a key held when it is written again', async () => {
    const storage = make();
    const key = newFileKey();
    await storage.put(key, pdfBytes(900_000));
    const second = pdfBytes(1200);
    await storage.put(key, second);
    expect((await readAll((await storage.open(key))!)).bytes.equals(second)).toBe(true);
    expect((await storage.keys()).filter((k) => k === key)).toHaveLength(1);
  });

  it('keeps nothing, not even a partial write, when the source fails', async () => {
    const storage = make();
    const key = newFileKey();
    await expect(storage.put(key, arriving(pdfBytes(3_000_000), 1_200_000))).rejects.toThrow(/went away/);
    expect(await storage.open(key)).toBeUndefined();
    expect(await storage.keys()).not.toContain(key);
    expect((await storage.inventory()).filter((entry) => entry.name.startsWith(key))).toEqual([]);
  });

  it('answers undefined for a missing or malformed key; removing a missing key is not an error', async () => {
    const storage = make();
    expect(await storage.open(newFileKey())).toBeUndefined();
    expect(await storage.open('../../etc/passwd')).toBeUndefined();
    await storage.remove(newFileKey());
    const key = newFileKey();
    await storage.put(key, pdfBytes(100));
    await storage.remove(key);
    expect(await storage.open(key)).toBeUndefined();
    expect(await storage.keys()).not.toContain(key);
  });

  it('discards a listed entry, and refuses a name it would not list', async () => {
    const storage = make();
    const key = newFileKey();
    await storage.put(key, pdfBytes(100));
    await storage.discard(key);
    expect(await storage.keys()).not.toContain(key);
    await expect(storage.discard('../outside')).rejects.toThrow(/invalid storage entry/);
  });
});

describe('files in PostgreSQL', () => {
  it('is the store the API uses with DATABASE_URL, and the local one without', () => {
    const postgres = process.env.API_TEST_DB === 'postgres';
    expect(server.config.filesStorage).toBe(postgres ? 'postgres' : 'local');
    expect(server.storage() instanceof PostgresFileStorage).toBe(postgres);
    expect(loadConfig({}).filesStorage).toBe('local');
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y' }).filesStorage).toBe('postgres');
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y', FILES_STORAGE: 'local' }).filesStorage).toBe('local');
    expect(() => loadConfig({ FILES_STORAGE: 'postgres' })).toThrow(/FILES_STORAGE=postgres needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x/y', FILES_STORAGE: 's3' })).toThrow(/FILES_STORAGE/);
  });

  it('writes an upload chunk by chunk as it arrives: a write under way is in the database, listed as partial', async () => {
    const storage = new PostgresFileStorage(server.db);
    const key = newFileKey();
    const bytes = pdfBytes(3 * CHUNK_BYTES + 1000);
    const source = new PassThrough();
    const writing = storage.put(key, source);
    source.write(bytes.subarray(0, 2 * CHUNK_BYTES + 10));
    const chunksOf = async () =>
      (
        await server.rows<{ n: number }>(
          sql`select count(*)::int as n from stored_file_chunks c join stored_files f on f.id = c.stored_file_id where f.key = ${key}`,
        )
      )[0]!.n;
    // Two full chunks are in before the rest has arrived; the write is not yet readable.
    await expect.poll(chunksOf, { timeout: 5_000 }).toBe(2);
    expect(await storage.open(key)).toBeUndefined();
    expect((await storage.inventory()).find((entry) => entry.name.startsWith(key))).toMatchObject({ partial: true });
    source.end(bytes.subarray(2 * CHUNK_BYTES + 10));
    await writing;
    expect(await chunksOf()).toBe(4);
    const sizes = await server.rows<{ size: number }>(
      sql`select length(c.bytes) as size from stored_file_chunks c join stored_files f on f.id = c.stored_file_id where f.key = ${key} order by c.chunk_no`,
    );
    expect(sizes.map((row) => Number(row.size))).toEqual([CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES, 1000]);
    expect((await storage.inventory()).filter((entry) => entry.name.startsWith(key))).toMatchObject([
      { name: key, partial: false },
    ]);
  });

  it('reads a large file one chunk at a time, never more than a chunk per read', async () => {
    const storage = new PostgresFileStorage(server.db);
    const key = newFileKey();
    // PGlite (WebAssembly) reads slowly: the embedded lane reads 4 MB, the PostgreSQL lane the largest upload.
    const bytes = pdfBytes((process.env.API_TEST_DB === 'postgres' ? 20 : 4) * 1024 * 1024);
    await storage.put(key, bytes);
    const stream = (await storage.open(key))!;
    const { bytes: read, largest } = await readAll(stream);
    expect(read.equals(bytes)).toBe(true);
    expect(largest).toBeLessThanOrEqual(CHUNK_BYTES);
    await storage.remove(key);
  });

  it('a file removed while it is read ends the stream with an error, never a short file', async () => {
    const storage = new PostgresFileStorage(server.db);
    const key = newFileKey();
    await storage.put(key, pdfBytes(3 * CHUNK_BYTES));
    const stream = (await storage.open(key))!;
    const first = await new Promise<Buffer>((resolve) => stream.once('data', resolve));
    stream.pause();
    expect(first.length).toBe(CHUNK_BYTES);
    // The next chunk may already be on its way when the file goes: its error is kept until it is read.
    const failed = new Promise<Error>((resolve) => stream.once('error', resolve));
    await storage.remove(key);
    await expect(readAll(stream)).rejects.toThrow(/removed while it was read/);
    expect((await failed).message).toMatch(/removed while it was read/);
  });
});

describe('moving the files of a local folder into PostgreSQL (npm run files:to-postgres)', () => {
  it('copies every complete file byte for byte, leaves partial writes, and skips what is there when run again', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'before-'));
    const disk = new DiskFileStorage(folder);
    const database = new PostgresFileStorage(server.db);
    const keys = [newFileKey(), newFileKey()];
    const contents = [pdfBytes(CHUNK_BYTES + 10), pdfBytes(500)];
    for (const [i, key] of keys.entries()) await disk.put(key, contents[i]!);
    const partial = `${keys[0]}.0123456789ab.part`;
    fs.writeFileSync(path.join(folder, ...partial.split('/')), 'half a file');

    expect(await copyFiles(disk, database)).toEqual({ copied: 2, skipped: 0 });
    for (const [i, key] of keys.entries())
      expect((await readAll((await database.open(key))!)).bytes.equals(contents[i]!)).toBe(true);
    expect((await database.inventory()).filter((entry) => entry.name.startsWith(keys[0]!) && entry.partial)).toEqual([]);
    expect(await copyFiles(disk, database)).toEqual({ copied: 0, skipped: 2 });
    for (const key of keys) await database.remove(key);
  });
});
