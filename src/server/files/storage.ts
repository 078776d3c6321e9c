import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config';
import type { Database } from '../db/connection';
import type { FileStorage, StoredEntry } from './file-storage';
import { PostgresFileStorage } from './postgres-storage';
import { KEY_PATTERN, PARTIAL_PATTERN, checkKey } from './storage-keys';

export type { FileStorage, StoredEntry } from './file-storage';
export { newFileKey } from './storage-keys';

async function collect(source: Readable | Uint8Array): Promise<Buffer> {
  if (!(source instanceof Readable)) return Buffer.from(source);
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Keeps bytes in the process (tests, and the in-memory database setup). */
export class MemoryFileStorage implements FileStorage {
  private readonly files = new Map<string, Buffer>();
  private readonly written = new Map<string, Date>();

  async put(key: string, source: Readable | Uint8Array): Promise<void> {
    checkKey(key);
    this.files.set(key, await collect(source));
    this.written.set(key, new Date());
  }
  async open(key: string): Promise<Readable | undefined> {
    if (!KEY_PATTERN.test(key)) return undefined;
    const bytes = this.files.get(key);
    return bytes ? Readable.from([bytes]) : undefined;
  }
  async remove(key: string): Promise<void> {
    this.files.delete(key);
    this.written.delete(key);
  }
  async keys(): Promise<string[]> {
    return [...this.files.keys()];
  }
  async inventory(): Promise<StoredEntry[]> {
    return [...this.files.keys()].map((name) => ({ name, partial: false, modifiedAt: this.written.get(name) ?? new Date() }));
  }
  async discard(name: string): Promise<void> {
    if (!KEY_PATTERN.test(name)) throw new Error(`invalid storage entry ${JSON.stringify(name)}`);
    await this.remove(name);
  }
}

/**
 * Files on local disk below a folder (DATA_DIR/files by default). A write goes to a temporary
 * name beside the target and is renamed into place only when complete, so a failed or refused
 * upload never leaves a partial file under a real key.
 */
export class DiskFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    checkKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, source: Readable | Uint8Array): Promise<void> {
    const target = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
    try {
      await pipeline(
        source instanceof Readable ? source : Readable.from([Buffer.from(source)]),
        fs.createWriteStream(temporary, { flags: 'wx' }),
      );
      await fs.promises.rename(temporary, target);
    } catch (error) {
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
  }

  async open(key: string): Promise<Readable | undefined> {
    if (!KEY_PATTERN.test(key)) return undefined;
    const file = this.pathOf(key);
    try {
      const handle = await fs.promises.open(file, 'r');
      return handle.createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async inventory(): Promise<StoredEntry[]> {
    const out: StoredEntry[] = [];
    for (const name of await this.keys()) {
      const partial = PARTIAL_PATTERN.test(name);
      if (!partial && !KEY_PATTERN.test(name)) continue;
      try {
        const stat = await fs.promises.stat(path.join(this.root, ...name.split('/')));
        out.push({ name, partial, modifiedAt: stat.mtime });
      } catch (error) {
        // Renamed or removed meanwhile: nothing to list.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return out;
  }

  async discard(name: string): Promise<void> {
    if (!PARTIAL_PATTERN.test(name) && !KEY_PATTERN.test(name)) throw new Error(`invalid storage entry ${JSON.stringify(name)}`);
    await fs.promises.rm(path.join(this.root, ...name.split('/')), { force: true });
  }

  async keys(): Promise<string[]> {
    const out: string[] = [];
    let shards: string[];
    try {
      shards = await fs.promises.readdir(this.root);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return out;
      throw error;
    }
    for (const shard of shards) {
      const dir = path.join(this.root, shard);
      if (!(await fs.promises.stat(dir)).isDirectory()) continue;
      for (const name of await fs.promises.readdir(dir)) out.push(`${shard}/${name}`);
    }
    return out;
  }
}

/** What picks a storage: FILES_STORAGE and, for a local one, FILES_DIR. */
export type StorageConfig = Pick<Config, 'filesStorage' | 'filesDir'>;

const localStorages = new Map<string, FileStorage>();
const databaseStorages = new WeakMap<Database, FileStorage>();

/**
 * The storage the configuration names (docs/decisions.md: 350): PostgreSQL, reached through the
 * database the process runs on, or the local folder FILES_DIR ('memory://' in tests). One instance
 * per location and process, so every app built in a process (tests start several on one database)
 * sees the same files, as processes sharing a disk or a database would.
 */
export function fileStorage(config: StorageConfig, db: Database): FileStorage {
  if (config.filesStorage === 'postgres') {
    let storage = databaseStorages.get(db);
    if (!storage) databaseStorages.set(db, (storage = new PostgresFileStorage(db)));
    return storage;
  }
  let storage = localStorages.get(config.filesDir);
  if (!storage) {
    storage = config.filesDir === 'memory://' ? new MemoryFileStorage() : new DiskFileStorage(config.filesDir);
    localStorages.set(config.filesDir, storage);
  }
  return storage;
}

/** Puts a storage in place of the one a configuration names (tests: a disk that fails, to see what a full disk does). */
export function replaceFileStorage(config: StorageConfig, db: Database, storage: FileStorage): void {
  if (config.filesStorage === 'postgres') databaseStorages.set(db, storage);
  else localStorages.set(config.filesDir, storage);
}
