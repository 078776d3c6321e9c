import Dexie, { type Table } from 'dexie';

export type NewOutboxRow = Omit<OutboxRow, 'seq'>;
import * as v from 'valibot';

/**
 * The device's own store (IndexedDB through Dexie): drafts as typed, the outbox of writes not yet
 * sent, files chosen offline, local → server ids, a per-user copy of screens read recently, and the
 * outcome of each sent write. Everything a user keeps here is keyed by their user id, so another
 * user of the same device never sees it.
 *
 * Stored data is checked when read (docs/decisions.md (090)): each table has a valibot schema, fields added by a
 * later version are optional with a default (so rows an older version wrote are migrated as they
 * are read), and a row that still does not parse is reported and left in place, never dropped and
 * never allowed to crash a screen.
 */

export const DB_NAME = 'portal';

const codes = v.record(v.string(), v.string());

const draftStatuses = ['editing', 'queued', 'rejected', 'conflict'] as const;
export type DraftStatus = (typeof draftStatuses)[number];

export const draftRowSchema = v.object({
  /** `${userId}|${key}`. */
  id: v.string(),
  userId: v.number(),
  key: v.string(),
  value: v.unknown(),
  baseVersion: v.optional(v.number(), 0),
  /** Strictly increasing per row: tells whether a draft changed after its save was queued. */
  updatedAt: v.optional(v.number(), 0),
  status: v.optional(v.picklist(draftStatuses), 'editing'),
  serverCodes: v.optional(codes),
  serverError: v.optional(v.string()),
  /** After a refused save: what the refusal is about (the contract's ErrorDetails), as sent. */
  serverDetails: v.optional(v.unknown()),
  conflict: v.optional(v.object({ data: v.unknown(), version: v.number() })),
});
export type DraftRow = v.InferOutput<typeof draftRowSchema>;

export const outboxRowSchema = v.object({
  /** Auto-increment: the order in which writes were made, and are sent. */
  seq: v.number(),
  /** The mutation id, sent as the Idempotency-Key header (the same on every retry). */
  id: v.string(),
  userId: v.number(),
  /** A kind registered with registerMutation (mutation-registry.ts); one not registered waits. */
  kind: v.string(),
  /** What the request is built from at send time; checked by the kind's schema when sent. */
  payload: v.unknown(),
  /** The draft this write came from, and its updatedAt when queued. */
  draftKey: v.optional(v.string()),
  draftUpdatedAt: v.optional(v.number()),
  createdAt: v.optional(v.number(), 0),
  attempts: v.optional(v.number(), 0),
  /** Until when the server asked this write to wait (a 429's Retry-After, epoch ms): a form says so. */
  heldUntil: v.optional(v.number()),
});
export type OutboxRow = v.InferOutput<typeof outboxRowSchema>;

const fileStatuses = ['queued', 'uploading', 'uploaded', 'failed'] as const;
export type FileStatus = (typeof fileStatuses)[number];

export const fileRowSchema = v.object({
  /** A local id (local-ids.ts). */
  localId: v.string(),
  userId: v.number(),
  /** What the file belongs to: a server id or a local id (rewritten once the local id is mapped). */
  owner: v.string(),
  type: v.string(),
  fileName: v.string(),
  /** Absent in rows of the first version: the feature that stored them knows what they were. */
  mimeType: v.optional(v.string()),
  size: v.number(),
  /** The file's bytes until it is uploaded (an ArrayBuffer: every browser stores those). */
  data: v.optional(
    v.custom<ArrayBuffer>(
      (value) => Object.prototype.toString.call(value) === '[object ArrayBuffer]',
      'Invalid type: Expected ArrayBuffer',
    ),
  ),
  status: v.optional(v.picklist(fileStatuses), 'queued'),
  progress: v.optional(v.number(), 0),
  fileId: v.optional(v.number()),
  key: v.optional(v.string()),
  error: v.optional(v.string()),
  createdAt: v.optional(v.number(), 0),
});
export type FileRow = v.InferOutput<typeof fileRowSchema>;

export const idMapRowSchema = v.object({
  /** An id made on the device (local-ids.ts). */
  localId: v.string(),
  userId: v.number(),
  serverId: v.number(),
  /** A second name the server gave it (e.g. a stored file's key). */
  key: v.optional(v.string()),
});
export type IdMapRow = v.InferOutput<typeof idMapRowSchema>;

export const cacheRowSchema = v.object({
  /** `${userId}|${key}`. */
  id: v.string(),
  userId: v.number(),
  key: v.string(),
  data: v.unknown(),
  savedAt: v.number(),
});
export type CacheRow = v.InferOutput<typeof cacheRowSchema>;

export const resultRowSchema = v.object({
  /** The mutation id. */
  id: v.string(),
  userId: v.number(),
  status: v.picklist(['done', 'rejected', 'conflict']),
  body: v.optional(v.unknown()),
  error: v.optional(v.string()),
  fields: v.optional(codes),
  /** What a refusal is about (the contract's ErrorDetails), as sent. */
  details: v.optional(v.unknown()),
  current: v.optional(v.object({ data: v.unknown(), version: v.number() })),
  /**
   * A versioned write that went through: the version of `key` it was based on and the one it made,
   * so a later write of this user based on the older version is sent on the newer one.
   */
  version: v.optional(v.object({ key: v.string(), from: v.number(), to: v.number() })),
  /** The version a versioned write made (its kind's versionMade), for the screen that waits on it. */
  made: v.optional(v.number()),
  at: v.number(),
});
export type ResultRow = v.InferOutput<typeof resultRowSchema>;

export const metaRowSchema = v.object({
  /** `sync|${userId}`: the leading tab's sync phase, so other tabs can show it. */
  id: v.string(),
  phase: v.picklist(['idle', 'syncing', 'offline', 'paused']),
  at: v.number(),
});
export type MetaRow = v.InferOutput<typeof metaRowSchema>;

/**
 * `changed|${userId}` in the meta table: how many of the user's writes the server has taken, in any
 * tab. Screens showing the server's data fetch it again when it grows (decision 340).
 */
export const changeRowSchema = v.object({
  id: v.string(),
  count: v.number(),
  at: v.number(),
});

export type ChangeRow = v.InferOutput<typeof changeRowSchema>;

export function changeRowId(userId: number): string {
  return `changed|${userId}`;
}

/** The meta row that tells every tab the leading tab's sync phase (a metaRowSchema row). */
export function syncPhaseRowId(userId: number): string {
  return `sync|${userId}`;
}

class PortalDb extends Dexie {
  drafts!: Table<DraftRow, string>;
  outbox!: Table<OutboxRow, number, NewOutboxRow>;
  uploads!: Table<FileRow, string>;
  idMap!: Table<IdMapRow, string>;
  cache!: Table<CacheRow, string>;
  results!: Table<ResultRow, string>;
  meta!: Table<MetaRow | ChangeRow, string>;

  constructor(name = DB_NAME) {
    super(name);
    // Only the versions with an upgrade function are declared: Dexie compares the declared schema
    // with the one the browser holds, so a store written by version 1 or 2 is brought to this one
    // (indexes added and dropped) before the upgrade below runs. A new version adds a
    // `this.version(n + 1)` block; row shapes evolve through the schemas above.
    this.version(3)
      .stores({
        drafts: 'id, userId, [userId+status]',
        outbox: '++seq, &id, userId',
        // Counts by status read the index only (the shell's status runs on every draft write; an
        // upload row holds the file's bytes).
        uploads: 'localId, userId, [userId+owner], [userId+status]',
        idMap: 'localId, userId',
        cache: 'id, userId',
        results: 'id, userId, at',
        meta: 'id',
      })
      // Version 3: a stored file's owner is `owner`; before, each feature named it its own way.
      .upgrade((tx) => moveLegacyOwners(tx.table('uploads')));
    // Version 4: a user's results of versioned writes by the record saved, so sending a versioned
    // write reads only that record's (not every result kept for a day; decision 382). Nothing to move.
    this.version(4).stores({ results: 'id, userId, at, [userId+version.key]' });
  }
}

/**
 * The field in which a feature's file rows, written by version 2 or earlier of this store, named
 * their owner. The feature that wrote them registers it (registerLegacyOwnerField) when its module
 * loads, before the store opens; the engine itself names no feature.
 */
const legacyOwnerFields = new Set<string>();

/** Moves a legacy owner field to `owner`, in place (rows with an owner, or with none of the fields, stay as they are). */
async function moveLegacyOwners(table: Table): Promise<void> {
  if (legacyOwnerFields.size === 0) return;
  // Read and put back (not modify(), which clones a row and may turn its bytes into a plain object).
  for (const row of (await table.toArray()) as Record<string, unknown>[]) {
    if (row.owner !== undefined) continue;
    const field = [...legacyOwnerFields].find((name) => typeof row[name] === 'string');
    if (field === undefined) continue;
    const { [field]: owner, ...rest } = row;
    await table.put({ ...rest, owner });
  }
}

/**
 * Declares that file rows stored by version 2 or earlier named their owner `field`: the version 3
 * upgrade moves it to `owner`. Called when the feature's module loads; if the store is already open
 * (it was upgraded before the feature loaded), the rows still carrying the field are moved now, so
 * a file chosen offline is never left unreadable.
 */
export function registerLegacyOwnerField(field: string): void {
  if (legacyOwnerFields.has(field)) return;
  legacyOwnerFields.add(field);
  if (db.isOpen()) {
    void db
      .transaction('rw', db.uploads, () => moveLegacyOwners(db.uploads))
      .catch((error: unknown) => console.warn('[offline] stored files could not be migrated', error));
  }
}

export const db = new PortalDb();

/** Rows that could not be read, reported once each (console and the listeners below). */
const reported = new Set<string>();
const problemListeners = new Set<(problem: StoredRowProblem) => void>();

export interface StoredRowProblem {
  table: string;
  rowId: string;
  issues: string;
}

export function onStoredRowProblem(listener: (problem: StoredRowProblem) => void): () => void {
  problemListeners.add(listener);
  return () => problemListeners.delete(listener);
}

export function reportStoredRow(table: string, rowId: unknown, issues: string): void {
  const key = `${table}|${String(rowId)}`;
  if (reported.has(key)) return;
  reported.add(key);
  const problem = { table, rowId: String(rowId), issues };
  console.warn(`[offline] a stored ${table} row could not be read and was kept as it is`, problem);
  problemListeners.forEach((listener) => listener(problem));
}

/** Parses a stored row; an unreadable row is reported (and stays stored) and yields undefined. */
export function readRow<S extends v.GenericSchema>(table: string, schema: S, row: unknown): v.InferOutput<S> | undefined {
  if (row === undefined || row === null) return undefined;
  const result = v.safeParse(schema, row);
  if (result.success) return result.output;
  const rowId =
    (row as { id?: unknown; localId?: unknown; seq?: unknown }).id ??
    (row as { localId?: unknown }).localId ??
    (row as { seq?: unknown }).seq;
  reportStoredRow(table, rowId, v.summarize(result.issues));
  return undefined;
}

export function readRows<S extends v.GenericSchema>(table: string, schema: S, rows: readonly unknown[]): v.InferOutput<S>[] {
  const out: v.InferOutput<S>[] = [];
  for (const row of rows) {
    const parsed = readRow(table, schema, row);
    if (parsed !== undefined) out.push(parsed);
  }
  return out;
}

// Beside Dexie's tables for their readers; its own module for the screens that load Dexie on demand.
export { hasIndexedDb } from './indexed-db';

/** Empties every table (tests, and nothing else). */
export async function clearAllTables(): Promise<void> {
  await Promise.all(db.tables.map((table) => table.clear()));
}

export function newUuid(): string {
  return globalThis.crypto.randomUUID();
}

export function draftRowId(userId: number, key: string): string {
  return `${userId}|${key}`;
}
