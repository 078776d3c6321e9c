import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';
import { currentRequestWork, hasCommitted, noteCommitted } from './request-work';
import { createStatementQueue } from './pglite-queue';
import { pgliteStartParams } from './pglite-settings';
import { plannerOptions } from './planner-settings';
import { lockDataDir } from './data-dir-lock';
import { copyPreparedCluster } from './prepared-cluster';
import { prepareStatements } from './postgres-prepared';
import { preparingQuery } from './pglite-prepared';
import { keepTypesAsText, withoutRepeatedParsers } from './pglite-parsers';
import { MIGRATIONS_FOLDER } from '../paths';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The embedded database's own folder (DATA_DIR/pglite); none in memory or on PostgreSQL. */
  folder?: string;
  close(): Promise<void>;
  /**
   * From now on every statement of `db` fails, and a transaction not yet committed rolls back:
   * the end of a graceful shutdown (docs/decisions.md 566). `ungated(db)` still works.
   */
  refuseWork(): void;
}

/** How busy the database is, for the metrics (docs/decisions.md 563). */
export type DatabaseStats =
  { kind: 'pglite'; pending: number } | { kind: 'postgres'; total: number; idle: number; waiting: number };

/** Said by a statement made after the database stopped taking work (a shutdown's deadline passed). */
export class DatabaseClosing extends Error {
  constructor() {
    super('the server is shutting down: the database takes no more work');
  }
}

/** Whether an error is, or was caused by, the gate's refusal (drizzle wraps a driver's errors). */
export function isDatabaseClosing(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof DatabaseClosing) return true;
  return false;
}

/**
 * A shutdown's gate: closed once, checked before every statement and before every commit. A
 * request that has committed a write passes it, to finish its answer (db/request-work.ts).
 */
class WorkGate {
  closed = false;
  check(): void {
    if (this.closed && !hasCommitted()) throw new DatabaseClosing();
  }
}

const statsOf = new WeakMap<Database, () => DatabaseStats>();
const ungatedOf = new WeakMap<Database, Database>();

/** The statement queue or the pool of a database opened here (undefined for any other). */
export function databaseStats(db: Database): DatabaseStats | undefined {
  return statsOf.get(db)?.();
}

/**
 * The same database without the shutdown's gate: for the work a shutdown itself must still do
 * (storing or releasing idempotency claims, removing a file whose row was refused). Any other
 * database is answered as it is.
 */
export function ungated(db: Database): Database {
  return ungatedOf.get(db) ?? db;
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
      await PGlite.create('memory://', {
        extensions: pgliteExtensions,
        startParams: pgliteStartParams,
        ...(startFrom ? { loadDataDir: startFrom } : {}),
      }),
      () => undefined,
    );
  const lock = lockDataDir(dataDir);
  try {
    const location = path.join(dataDir, EMBEDDED_DATABASE_FOLDER);
    // A new data folder starts from the build's prepared cluster rather than running initdb here.
    if (!fs.existsSync(path.join(location, 'PG_VERSION'))) copyPreparedCluster(location);
    fs.mkdirSync(location, { recursive: true });
    const handle = await pgliteHandle(
      await PGlite.create(location, { extensions: pgliteExtensions, startParams: pgliteStartParams }),
      () => lock.release(),
    );
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
 * each transaction now waits in a queue of ours that lets the loop take one turn before each, and
 * takes a request's next statement before new requests' first ones (db/pglite-queue.ts,
 * docs/decisions.md 672). The queue counts the statements and transactions waiting for the database
 * for the metrics; the same wrapper keeps the shutdown's gate: a statement, or a transaction's
 * commit, after the gate closed fails (the transaction rolls back). The originals are returned ungated.
 */
function takeTurns(
  client: PGlite,
  gate: WorkGate,
): { ungated: Pick<PGlite, 'query' | 'transaction'>; stats: () => DatabaseStats } {
  // Repeated reads are prepared once (docs/decisions.md 723); transactions run as they are.
  const prepared = preparingQuery(client.query.bind(client), client.serializers);
  const query = ((text: string, values?: unknown[], options?: QueryOptions) =>
    prepared(text, values, withoutRepeatedParsers(options))) as typeof client.query;
  const transaction = client.transaction.bind(client);
  const queue = createStatementQueue({ requestOf: currentRequestWork });
  client.query = async function (...args: Parameters<typeof query>) {
    return queue.run(async () => {
      gate.check();
      return query(...args);
    });
  } as typeof client.query;
  client.transaction = async function <T>(callback: (tx: Transaction) => Promise<T>) {
    return queue.run(async () => {
      gate.check();
      const result = await transaction(async (tx) => {
        gateTransaction(tx, gate);
        const result = await callback(tx);
        // Checked after the last statement, before PGlite commits: a late transaction rolls back.
        gate.check();
        return result;
      });
      noteCommitted();
      return result;
    });
  } as typeof client.transaction;
  // One statement or transaction runs; the others counted here wait for it (or for their turn).
  const stats = (): DatabaseStats => ({ kind: 'pglite', pending: queue.pending });
  return { ungated: { query, transaction } as Pick<PGlite, 'query' | 'transaction'>, stats };
}

function gateTransaction(tx: Transaction, gate: WorkGate): void {
  const query = tx.query.bind(tx);
  const exec = tx.exec.bind(tx);
  tx.query = (async (text: string, values?: unknown[], options?: QueryOptions) => {
    gate.check();
    return query(text, values, withoutRepeatedParsers(options));
  }) as typeof tx.query;
  tx.exec = (async (...args: Parameters<typeof exec>) => {
    gate.check();
    return exec(...args);
  }) as typeof tx.exec;
}

/** Applies the migrations to an embedded database. */
export async function migrateEmbedded(client: PGlite): Promise<void> {
  await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
}

async function pgliteHandle(client: PGlite, release: () => void): Promise<DatabaseHandle> {
  keepTypesAsText(client);
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  await migrateEmbedded(client);
  const gate = new WorkGate();
  const turns = takeTurns(client, gate);
  // drizzle's PGlite session only calls query and transaction on its client.
  ungatedOf.set(db, drizzlePglite({ client: turns.ungated as PGlite, schema }) as unknown as Database);
  statsOf.set(db, turns.stats);
  const close = async () => {
    try {
      await client.close();
    } finally {
      release();
    }
  };
  return { db, kind: 'pglite', close, refuseWork: () => void (gate.closed = true) };
}

/** Statements that end a transaction without committing pass a closed gate. */
const ROLLBACK = /^\s*rollback\b/i;
/** A transaction's commit: the request's work is done from then on (db/request-work.ts). */
const COMMIT = /^\s*(commit|end)\b/i;

/** Every connection of the pool checks the gate before a statement (a commit included). */
function gatePool(pool: pg.Pool, gate: WorkGate): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : (first?.text ?? '');
      if (gate.closed && !ROLLBACK.test(text) && !hasCommitted()) {
        const error = new DatabaseClosing();
        const callback = args.find((arg) => typeof arg === 'function') as ((e: Error) => void) | undefined;
        if (callback) return void process.nextTick(callback, error);
        return Promise.reject(error);
      }
      const result = query(...args);
      if (COMMIT.test(text) && result instanceof Promise) result.then(noteCommitted, () => undefined);
      return result;
    }) as typeof client.query;
  });
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  // Each connection starts with the planner's settings (db/planner-settings.ts, docs/decisions.md 724).
  const options = plannerOptions().join(' ');
  const pool = new pg.Pool({ connectionString: url, max: 10, options });
  // The shutdown's own work (idempotency claims, files) goes through two connections of its own,
  // which the gate does not close (docs/decisions.md 566).
  const ungatedPool = new pg.Pool({ connectionString: url, max: 2, options });
  // An idle connection can be cut by the server (a restart, an administrator, a dropped
  // database). pg reports that on the pool; without a listener it would end the process. The pool
  // opens a new connection on the next query, so a note is enough, and none once we are closing
  // (pool.end() resolves before its last connections have finished saying goodbye).
  let closing = false;
  for (const each of [pool, ungatedPool])
    each.on('error', (error) => {
      if (!closing) console.warn(`PostgreSQL closed an idle connection: ${error.message}`);
    });
  const gate = new WorkGate();
  gatePool(pool, gate);
  // Statements the server sends again are prepared once per connection (docs/decisions.md 613).
  prepareStatements(pool);
  const db = drizzlePg({ client: pool, schema });
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    lock.release();
  }
  const handle = db as unknown as Database;
  ungatedOf.set(handle, drizzlePg({ client: ungatedPool, schema }) as unknown as Database);
  statsOf.set(handle, () => ({ kind: 'postgres', total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  const close = async () => {
    closing = true;
    await Promise.all([pool.end(), ungatedPool.end()]);
  };
  return { db: handle, kind: 'postgres', close, refuseWork: () => void (gate.closed = true) };
}
