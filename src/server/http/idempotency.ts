import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { isDatabaseClosing, ungated, type Database } from '../db/connection';
import { idempotencyKeys } from '../db/schema';
import { isBodyUnreadable } from '../files/unreadable-bodies';
import { AppError } from '../errors/app-error';

/**
 * Idempotency keys (offline outbox replays), for every operation whose contract lists the
 * Idempotency-Key header:
 * - the first request with a key claims it (one `insert … on conflict do nothing`: of two
 *   requests racing, in any number of processes, exactly one wins) and runs;
 * - its answer is stored when it is sent: successes and the 4xx answers that say something about
 *   the request (400, 404, 409); not 401/403/429 (about the session or the moment, not the
 *   request) nor 5xx (a fault): those release the claim, so the same key may try again;
 * - a replay with the same key and the same request answers the stored status and body;
 *   with another request (method, path or body) 400 `idempotencyKeyReused`;
 *   while the first is still running, 409 `inProgress` (try again shortly);
 * - a request whose body never fully arrived (a dropped or truncated upload), or arrived without
 *   its end (a multipart body with no closing boundary), stores nothing and releases its claim at
 *   once, whether or not an answer could still be sent: the retry runs.
 * Keys belong to the signed-in user: one user's keys never meet another's.
 */
const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * A claim with no answer is taken over once it has not been renewed for this long: the claim of a
 * process that died mid-request (kill -9, a crash). A live request renews its claim every third of
 * the lease, however long its body takes to arrive, so a slow upload never loses its claim.
 */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;

interface Claim {
  userId: number;
  key: string;
  renewal: NodeJS.Timeout;
}

const claims = new WeakMap<FastifyRequest, Claim>();

/** The claims this process holds now, by database: counted by the metrics, released at shutdown. */
const held = new WeakMap<Database, Set<Claim>>();

function heldOn(db: Database): Set<Claim> {
  let set = held.get(db);
  if (!set) held.set(db, (set = new Set()));
  return set;
}

/** Releases under way (a connection that closed before its body arrived): a shutdown waits for them. */
const releasing = new WeakMap<Database, Set<Promise<void>>>();

function releasingOn(db: Database): Set<Promise<void>> {
  let set = releasing.get(db);
  if (!set) releasing.set(db, (set = new Set()));
  return set;
}

/** How many idempotency claims requests of this process hold now (docs/decisions.md 563). */
export function idempotencyClaimsHeld(db: Database): number {
  return held.get(db)?.size ?? 0;
}

/**
 * Runs a claim's own statement; once a shutdown has closed the database to requests' work, on
 * the ungated path: an answer is still stored, and a claim still released, so the client's retry
 * with the same key is never blocked by this process (docs/decisions.md 566).
 */
async function onClaim<T>(db: Database, statement: (db: Database) => Promise<T>): Promise<T> {
  try {
    return await statement(db);
  } catch (error) {
    if (!isDatabaseClosing(error)) throw error;
    return statement(ungated(db));
  }
}

/**
 * At the end of a shutdown (the deadline passed and the database refuses requests' work, so none
 * of theirs can commit any more): the claims of the requests still running are let go, so the
 * client's retry runs at once on another process, or on this one restarted.
 */
export async function releaseHeldClaims(db: Database): Promise<number> {
  await Promise.all(releasing.get(db) ?? []);
  const set = held.get(db);
  if (!set) return 0;
  const all = [...set];
  set.clear();
  for (const claim of all) {
    clearInterval(claim.renewal);
    await ungated(db)
      .delete(idempotencyKeys)
      .where(
        and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key), isNull(idempotencyKeys.statusCode)),
      );
  }
  return all.length;
}

/** JSON with object keys sorted at every level: equal bodies hash alike whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** Method, path (with its query) and canonical body; a multipart body is left out (it is streamed later). */
export function requestHash(request: FastifyRequest, multipart: boolean): string {
  const body = multipart ? '' : canonicalJson(request.body);
  return createHash('sha256').update(`${request.method}\n${request.url}\n${body}`).digest('hex');
}

/** Whether an answer with this status is kept for replays (see above). */
export function isStoredStatus(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status >= 400 && status < 500 && ![401, 403, 429].includes(status);
}

function headerKey(request: FastifyRequest): string | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(raw) ? raw[0] : raw;
  return key ? key : undefined;
}

/** The route hooks of an operation that takes the header (wired in app.ts). */
export function idempotencyHooks(
  db: Database,
  options: { multipart: boolean; leaseMs?: number },
): { preHandler: (request: FastifyRequest, reply: FastifyReply) => Promise<void>; onSend: onSendHookHandler } {
  const leaseMs = options.leaseMs ?? IDEMPOTENCY_LEASE_MS;
  const whereClaim = (claim: { userId: number; key: string }) =>
    and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key), isNull(idempotencyKeys.statusCode));

  const release = async (request: FastifyRequest, claim: Claim) => {
    try {
      await onClaim(db, (on) => on.delete(idempotencyKeys).where(whereClaim(claim)));
    } catch (error) {
      // Left to its lease: the next replay after it takes the claim over.
      request.log.error(error, 'releasing an idempotency claim failed');
    }
  };

  /** Ours now: renewed while the request runs; released or answered when it ends. */
  const hold = (request: FastifyRequest, reply: FastifyReply, userId: number, key: string) => {
    const renewal = setInterval(
      () => {
        onClaim(db, (on) =>
          on
            .update(idempotencyKeys)
            .set({ createdAt: sql`now()` })
            .where(whereClaim({ userId, key })),
        ).catch((error: unknown) => request.log.error(error, 'renewing an idempotency claim failed'));
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    renewal.unref();
    const claim = { userId, key, renewal };
    claims.set(request, claim);
    heldOn(db).add(claim);
    // The connection ended before the body arrived: no answer can matter, let the retry run.
    reply.raw.once('close', () => {
      if (bodyArrived(request)) return;
      const claim = take(request);
      if (!claim) return;
      const pending = release(request, claim).finally(() => releasingOn(db).delete(pending));
      releasingOn(db).add(pending);
    });
  };

  const take = (request: FastifyRequest): Claim | undefined => {
    const claim = claims.get(request);
    if (!claim) return undefined;
    claims.delete(request);
    // Gone already when the shutdown released it: nothing is left to release or store.
    if (!heldOn(db).delete(claim)) return undefined;
    clearInterval(claim.renewal);
    return claim;
  };

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = headerKey(request);
    const userId = request.auth?.user.id;
    if (!key || !userId) return;
    const hash = requestHash(request, options.multipart);
    const path = request.url.split('?')[0]!;
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ userId, key, method: request.method, path, requestHash: hash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 1) {
      hold(request, reply, userId, key);
      return;
    }
    const [stored] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    if (!stored) {
      // Released (a fault) between our insert and this read: the client tries again.
      throw new AppError(409, 'inProgress');
    }
    if (stored.requestHash !== hash) throw new AppError(400, 'idempotencyKeyReused');
    if (stored.statusCode === null) {
      // Abandoned by a process that died mid-request: take it over (only one taker wins).
      const takenOver = await db
        .update(idempotencyKeys)
        .set({ createdAt: sql`now()` })
        .where(
          and(
            eq(idempotencyKeys.userId, userId),
            eq(idempotencyKeys.key, key),
            isNull(idempotencyKeys.statusCode),
            lt(idempotencyKeys.createdAt, sql`now() - ${leaseMs} * interval '1 millisecond'`),
          ),
        )
        .returning({ key: idempotencyKeys.key });
      if (takenOver.length === 1) {
        hold(request, reply, userId, key);
        return;
      }
      throw new AppError(409, 'inProgress');
    }
    reply.header('Idempotent-Replayed', 'true').header('Cache-Control', 'no-store');
    reply.code(stored.statusCode);
    if (stored.responseBody === null || stored.statusCode === 204) return reply.send();
    return reply.send(stored.responseBody);
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = take(request);
    if (!claim) return payload;
    const status = reply.statusCode;
    if (!isStoredStatus(status) || !bodyArrived(request)) {
      await release(request, claim);
      return payload;
    }
    try {
      await onClaim(db, (on) =>
        on
          .update(idempotencyKeys)
          .set({ statusCode: status, responseBody: parseBody(payload) })
          .where(whereClaim(claim)),
      );
    } catch (error) {
      // The answer still goes out; the claim stays open and is taken over once its lease ends.
      request.log.error(error, 'storing an idempotent answer failed');
    }
    return payload;
  };

  return { preHandler, onSend };
}

/** Whether the whole request body was received (requests made in-process, by inject, always are). */
function bodyArrived(request: FastifyRequest): boolean {
  return request.raw.complete !== false && !isBodyUnreadable(request);
}

function parseBody(payload: unknown): unknown {
  if (payload === undefined || payload === null || payload === '') return null;
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  if (text === undefined) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
