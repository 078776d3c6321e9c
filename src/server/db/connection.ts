import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';
import { lockDataDir } from './data-dir-lock';
import { copyPreparedCluster } from './prepared-cluster';
import { MIGRATIONS_FOLDER } from '../paths';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The embedded database's own folder (DATA_DIR/pglite); none in memory or on PostgreSQL. */
  folder?: string;
  close(): Promise<void>;
}

/** The rows of a raw SQL statement; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Any number of processes may start at once on one PostgreSQL: one migrates, the others wait. */
const MIGRATION_LOCK_ID = 7_301_964;

export interface OpenOptions {
  databaseUrl?: string;
  dataDir: string;
  /**
   * For an in-memory embedded database: start from this dump of another one (PGlite's
   * `dumpDataDir`) instead of creating a cluster. The tests start each server from one migrated
   * dump: creating a cluster in WebAssembly costs about a second, loading a dump a third of that.
   */
  startFrom?: Blob;
}

/**
 * Opens the database and applies the migrations: PostgreSQL when a URL is given, otherwise the
 * embedded PGlite under dataDir ('memory://' keeps it in memory, for tests).
 */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.dataDir, options.startFrom);
}

/** A dump of an in-memory embedded database, to start others from (see OpenOptions.startFrom). */
export async function dumpEmbedded(handle: DatabaseHandle): Promise<Blob> {
  if (handle.kind !== 'pglite') throw new Error('only the embedded database can be dumped');
  return (handle.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
}

/**
 * Runs copy while the embedded database is quiet: inside the one transaction PGlite runs at a time
 * (no other statement or transaction can start until it ends), after a checkpoint has written
 * every change to the data folder's files. What copy reads of the folder is then a single snapshot
 * that opens without recovery (docs/decisions.md 570).
 */
export async function whileEmbeddedQuiet<T>(handle: DatabaseHandle, copy: (pgliteFolder: string) => Promise<T>): Promise<T> {
  if (handle.kind !== 'pglite' || !handle.folder) throw new Error('only an embedded database in a data folder can be copied');
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  const folder = handle.folder;
  return client.transaction(async (tx) => {
    await tx.exec('checkpoint');
    return copy(folder);
  });
}

/**
 * The extensions the embedded database is created with: the searches' trigram indexes need
 * pg_trgm (docs/decisions.md, 374), which PGlite ships; on PostgreSQL the migration creates it.
 */
export const pgliteExtensions = { pg_trgm };

/** The embedded database's folder inside DATA_DIR. */
export const EMBEDDED_DATABASE_FOLDER = 'pglite';

/**
 * The embedded database lives in files one process may open at a time: the data folder is locked
 * first (db/data-dir-lock.ts), and a second process stops here with DataDirLocked.
 */
async function openPglite(dataDir: string, startFrom?: Blob): Promise<DatabaseHandle> {
  if (dataDir === 'memory://')
    return pgliteHandle(
      await PGlite.create('memory://', { extensions: pgliteExtensions, ...(startFrom ? { loadDataDir: startFrom } : {}) }),
      () => undefined,
    );
  const lock = lockDataDir(dataDir);
  try {
    const location = path.join(dataDir, EMBEDDED_DATABASE_FOLDER);
    // A new data folder starts from the build's prepared cluster rather than running initdb here.
    if (!fs.existsSync(path.join(location, 'PG_VERSION'))) copyPreparedCluster(location);
    fs.mkdirSync(location, { recursive: true });
    const handle = await pgliteHandle(await PGlite.create(location, { extensions: pgliteExtensions }), () => lock.release());
    return { ...handle, folder: location };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * The embedded database runs each statement on this thread, and its answers resume their callers as
 * microtasks: under load, the requests already in flight chained statement after statement and the
 * event loop did not read a new connection for seconds (docs/decisions.md, 376). Each statement and
 * each transaction now first lets the loop take one turn, so new requests are read between them.
 */
function takeTurns(client: PGlite): void {
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = async function (...args: Parameters<typeof query>) {
    await turn();
    return query(...args);
  } as typeof client.query;
  client.transaction = async function (...args: Parameters<typeof transaction>) {
    await turn();
    return transaction(...args);
  } as typeof client.transaction;
}

/** Applies the migrations to an embedded database. */
export async function migrateEmbedded(client: PGlite): Promise<void> {
  await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
}

async function pgliteHandle(client: PGlite, release: () => void): Promise<DatabaseHandle> {
  const db = drizzlePglite({ client, schema });
  await migrateEmbedded(client);
  takeTurns(client);
  const close = async () => {
    try {
      await client.close();
    } finally {
      release();
    }
  };
  return { db: db as unknown as Database, kind: 'pglite', close };
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection can be cut by the server (a restart, an administrator, a dropped
  // database). pg reports that on the pool; without a listener it would end the process. The pool
  // opens a new connection on the next query, so a note is enough, and none once we are closing
  // (pool.end() resolves before its last connections have finished saying goodbye).
  let closing = false;
  pool.on('error', (error) => {
    if (!closing) console.warn(`PostgreSQL closed an idle connection: ${error.message}`);
  });
  const db = drizzlePg({ client: pool, schema });
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    lock.release();
  }
  const close = () => {
    closing = true;
    return pool.end();
  };
  return { db: db as unknown as Database, kind: 'postgres', close };
}
