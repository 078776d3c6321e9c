import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { ungated, type Database } from '../db/connection';
import { storedFileChunks, storedFiles } from '../db/schema';
import type { FileStorage, StoredEntry } from './file-storage';
import { KEY_PATTERN, PARTIAL_PATTERN, checkKey } from './storage-keys';

/**
 * The size of a stored chunk: a write holds at most this (plus what arrives meanwhile) before it
 * goes to the database, and a download at most this per read, so a 20 MB file is never in memory
 * whole (docs/decisions.md: 351).
 */
export const CHUNK_BYTES = 512 * 1024;

/**
 * Files in PostgreSQL (tables stored_files and stored_file_chunks; docs/decisions.md: 350), so
 * every server process on every machine that reaches the database reaches the files. A write is a
 * row that is not `complete` while its chunks arrive, each chunk its own statement (no transaction
 * held open for the length of an upload); the last step marks it complete and removes an earlier
 * write under the same key, in one transaction. A failed or refused write removes its row (its
 * chunks go with it); when even that fails, housekeeping finds it in the inventory as a partial write.
 */
export class PostgresFileStorage implements FileStorage {
  constructor(private readonly db: Database) {}

  async put(key: string, source: Readable | Uint8Array): Promise<void> {
    checkKey(key);
    const [row] = await this.db.insert(storedFiles).values({ key }).returning({ id: storedFiles.id });
    const id = row!.id;
    try {
      let chunkNo = 0;
      for await (const chunk of inChunks(source, CHUNK_BYTES)) {
        // The chunk and the write's size and age in one round trip: a write still arriving is never old.
        await this.db.execute(sql`
          with chunk as (
            insert into ${storedFileChunks} (stored_file_id, chunk_no, bytes) values (${id}, ${chunkNo}, ${chunk})
          )
          update ${storedFiles} set size = size + ${chunk.length}, written_at = now() where id = ${id}`);
        chunkNo += 1;
      }
      await this.db.transaction(async (tx) => {
        await tx.delete(storedFiles).where(and(eq(storedFiles.key, key), eq(storedFiles.complete, true)));
        await tx
          .update(storedFiles)
          .set({ complete: true, writtenAt: sql`now()` })
          .where(eq(storedFiles.id, id));
      });
    } catch (error) {
      // Ungated: a write cut short by a shutdown still takes its partial bytes away (docs/decisions.md 566).
      await ungated(this.db)
        .delete(storedFiles)
        .where(eq(storedFiles.id, id))
        .catch(() => undefined);
      throw error;
    }
  }

  async open(key: string): Promise<Readable | undefined> {
    if (!KEY_PATTERN.test(key)) return undefined;
    const [file] = await this.db
      .select({ id: storedFiles.id, size: storedFiles.size })
      .from(storedFiles)
      .where(and(eq(storedFiles.key, key), eq(storedFiles.complete, true)))
      .limit(1);
    if (!file) return undefined;
    const db = this.db;
    let chunkNo = 0;
    let sent = 0;
    // One chunk per read, asked for when the reader wants more: a slow client holds one chunk and
    // no database connection between reads.
    return new Readable({
      read() {
        if (sent >= file.size) {
          this.push(null);
          return;
        }
        db.select({ bytes: storedFileChunks.bytes })
          .from(storedFileChunks)
          .where(and(eq(storedFileChunks.storedFileId, file.id), eq(storedFileChunks.chunkNo, chunkNo)))
          .then(
            ([chunk]) => {
              // Removed (or replaced) while it was read: the reader sees an error, never a short file.
              if (!chunk) return this.destroy(new Error(`stored file ${key} was removed while it was read`));
              chunkNo += 1;
              sent += chunk.bytes.length;
              this.push(chunk.bytes);
            },
            (error: unknown) => this.destroy(error as Error),
          );
      },
    });
  }

  async remove(key: string): Promise<void> {
    checkKey(key);
    // Ungated: the bytes of a row a shutdown refused are still removed (docs/decisions.md 566).
    await ungated(this.db)
      .delete(storedFiles)
      .where(and(eq(storedFiles.key, key), eq(storedFiles.complete, true)));
  }

  async keys(): Promise<string[]> {
    const rows = await this.db.select({ key: storedFiles.key }).from(storedFiles).where(eq(storedFiles.complete, true));
    return rows.map((row) => row.key);
  }

  async inventory(): Promise<StoredEntry[]> {
    const rows = await this.db
      .select({ id: storedFiles.id, key: storedFiles.key, complete: storedFiles.complete, writtenAt: storedFiles.writtenAt })
      .from(storedFiles);
    return rows.map((row) => ({
      name: row.complete ? row.key : partialName(row.key, row.id),
      partial: !row.complete,
      modifiedAt: row.writtenAt,
    }));
  }

  async discard(name: string): Promise<void> {
    const partial = PARTIAL_PATTERN.test(name);
    if (!partial && !KEY_PATTERN.test(name)) throw new Error(`invalid storage entry ${JSON.stringify(name)}`);
    if (!partial) return this.remove(name);
    const [key, id] = [name.slice(0, name.indexOf('.pdf.') + 4), Number.parseInt(name.slice(-17, -5), 16)];
    await this.db
      .delete(storedFiles)
      .where(and(eq(storedFiles.id, id), eq(storedFiles.key, key), eq(storedFiles.complete, false)));
  }
}

/** A partial write's name, as on disk: `<key>.<twelve hex digits>.part` (here the row's id). */
function partialName(key: string, id: number): string {
  return `${key}.${id.toString(16).padStart(12, '0')}.part`;
}

/** The source's bytes in pieces of exactly `size` (the last one shorter), never more than that held. */
async function* inChunks(source: Readable | Uint8Array, size: number): AsyncGenerator<Buffer> {
  if (!(source instanceof Readable)) {
    const bytes = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
    return;
  }
  let pending: Buffer[] = [];
  let held = 0;
  for await (const piece of source) {
    let bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
    while (held + bytes.length >= size) {
      const take = size - held;
      yield Buffer.concat([...pending, bytes.subarray(0, take)]);
      bytes = bytes.subarray(take);
      pending = [];
      held = 0;
    }
    if (bytes.length > 0) {
      pending.push(bytes);
      held += bytes.length;
    }
  }
  if (held > 0) yield Buffer.concat(pending);
}
