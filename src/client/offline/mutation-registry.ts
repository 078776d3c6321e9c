import * as v from 'valibot';
import type { ApiClient } from '../api/client';
import type { SendOutcome } from './send-outcome';

/**
 * The writes the outbox can hold, registered by the features that own them. Each is stored as a
 * small payload (checked by its schema when read back) and turned into its request only when it is
 * sent, so local ids that did not exist when it was queued are resolved then (local-ids.ts).
 *
 * A feature declares its kinds' payloads for the type checker by augmenting MutationKinds:
 *   declare module '…/offline/mutation-registry' { interface MutationKinds { myKind: MyPayload } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the features
export interface MutationKinds {}

export type MutationKind = Extract<keyof MutationKinds, string>;

export interface SendContext {
  /** The write's id, sent as its Idempotency-Key (the same on every retry). */
  idempotencyKey: string;
  userId: number;
  /** A server id for a reference (a local id through the map); a local id not known yet makes the write wait. */
  resolveId(id: number | string): Promise<number>;
  /**
   * The version to send for a versioned write based on `base`: the one the user's own earlier write
   * of `key` made, if it replaced `base` (so it does not come back as a conflict with their own work).
   * The engine records what was sent; `versionMade` then records what the server made of it.
   */
  ownVersion(key: string, base: number): Promise<number>;
  /**
   * The sync's API client (offline/sync-batch.ts): the calls of the sends under way made through it
   * may reach the server together in one `POST /batch`, each answered as if sent alone. Only for
   * the calls the server batches (the step save); any other goes through the app's `api`.
   */
  api: ApiClient;
}

export interface HoldContext {
  userId: number;
  /** Whether a write of the user queued after this one matches. */
  queuedAfter(match: (kind: string, payload: unknown) => boolean): Promise<boolean>;
  /** Keys of the user's drafts the server refused or that conflict (someone must act on them first). */
  draftsNeedingAttention(): Promise<string[]>;
}

export interface SettledContext {
  userId: number;
  at: number;
  /** Queues a follow-up write (inside the engine's transaction). */
  enqueue<K extends MutationKind>(kind: K, payload: MutationKinds[K]): Promise<void>;
}

export interface MutationHandler<P> {
  kind: string;
  /** Checked when read back from IndexedDB (rows written by any earlier version). */
  payload: v.GenericSchema<unknown, P>;
  /** Writes in one scope go one after another; null: no order with any other write. */
  scope(payload: P): string | null;
  /**
   * Sent through `ctx.api` as a call POST /batch takes: it may go to the server with other scopes'
   * writes in one call, and more scopes' writes of it are sent side by side (decision 702).
   */
  batched?: boolean;
  /** Builds the request now and sends it; a rejected fetch (no connection) may be thrown. */
  send(payload: P, ctx: SendContext): Promise<SendOutcome>;
  /** Held (not blocked: writes after it go on) while this answers true. */
  holdWhile?(payload: P, ctx: HoldContext): Promise<boolean>;
  /** After the server accepted it, inside the engine's transaction (e.g. map a local id). */
  onDone?(payload: P, body: unknown, ctx: SettledContext): Promise<void>;
  /** After the server refused it, inside the engine's transaction. */
  onRejected?(payload: P, outcome: { error: string; fields: Record<string, string> }, ctx: SettledContext): Promise<void>;
  /** The version the server made (a versioned write), read from its answer. */
  versionMade?(body: unknown): number | undefined;
  /** What a refused or conflicting write carried, for a draft that no longer exists. */
  draftValue?(payload: P): { value: unknown; baseVersion: number } | undefined;
}

const handlers = new Map<string, MutationHandler<unknown>>();

/** Registers a kind (once, when the feature's module loads); returns the handler for enqueue. */
export function registerMutation<K extends MutationKind>(handler: MutationHandler<MutationKinds[K]> & { kind: K }) {
  const existing = handlers.get(handler.kind);
  if (existing && existing !== (handler as MutationHandler<unknown>))
    throw new Error(`mutation kind registered twice: ${handler.kind}`);
  handlers.set(handler.kind, handler as MutationHandler<unknown>);
  return handler;
}

/** The handler of a stored kind (undefined while its feature has not registered it: the write waits). */
export function handlerOf(kind: string): MutationHandler<unknown> | undefined {
  return handlers.get(kind);
}

let loadMutations: (() => Promise<unknown>) | null = null;
let registered: Promise<unknown> | null = null;

/**
 * How every feature's writes get registered when they are loaded on demand: the app shell says it
 * once (the offline layer cannot import the features). docs/decisions.md (630).
 */
export function setMutationsLoader(load: () => Promise<unknown>): void {
  loadMutations = load;
  registered = null;
}

/**
 * Settles once every feature's writes are registered (at once when no loader was set: the features
 * were imported, as in tests). What reads the outbox for every page waits for it, since a write of
 * a kind not registered is left out.
 */
export function mutationsRegistered(): Promise<unknown> {
  registered ??= (loadMutations?.() ?? Promise.resolve()).catch((error: unknown) => {
    // Their code could not be fetched: asked again next time.
    registered = null;
    console.error('[offline] the writes could not be loaded', error);
  });
  return registered;
}
