import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/connection';
import { releaseHeldClaims } from '../http/idempotency';
import type { Lifecycle } from './lifecycle';

/** After the deadline, how long the requests just ended get to see their work refused and answer their claims. */
const SETTLE_MS = 2_000;
/** How long closing the database may take before the process exits anyway. */
const DATABASE_CLOSE_MS = 5_000;

export interface ShutdownOptions {
  app: FastifyInstance;
  lifecycle: Lifecycle;
  database: DatabaseHandle;
  /**
   * Stops the background jobs (mail, housekeeping, time-stamps, backup requests): no new run starts.
   * What it returns settles once a run under way has finished; the database waits for it (within the deadline).
   */
  stopJobs: () => void | Promise<void>;
  timeoutMs: number;
  drainMs: number;
}

/** Settles when the work does, or after ms; says which came first. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let inTime = false;
  await Promise.race([work.then(() => (inTime = true)).catch(() => (inTime = true)), sleep(ms, undefined, { ref: false })]);
  return inTime;
}

/**
 * A graceful stop on SIGTERM or SIGINT (docs/decisions.md 565-566):
 * 1. /readyz answers 503 and every answer says `Connection: close`; no background job starts again;
 *    for SHUTDOWN_DRAIN_MS new requests are still served, while a load balancer takes us out;
 * 2. the listener closes, idle connections with it, and the requests in flight may finish within
 *    SHUTDOWN_TIMEOUT_MS;
 * 3. past it, the database refuses the work of requests still running (a statement fails, a
 *    transaction rolls back: nothing is half-written), their connections are ended (the client
 *    sees a failure it retries), and the idempotency claims they still hold are released, so the
 *    retry with the same key runs at once elsewhere;
 * 4. the database is closed. Answers how many requests were ended at the deadline.
 */
export async function shutDown(options: ShutdownOptions): Promise<{ ended: number }> {
  const { app, lifecycle, database } = options;
  lifecycle.beginShutdown();
  const jobsStopped = Promise.resolve(options.stopJobs());
  if (options.drainMs > 0) await sleep(options.drainMs);

  const closed = app.close();
  let ended = 0;
  if (!(await within(Promise.all([closed, jobsStopped]), options.timeoutMs))) {
    ended = await openConnections(app);
    app.log.warn(`shutdown: ${ended} connection(s) still busy after ${options.timeoutMs} ms are ended; their work is refused`);
    database.refuseWork();
    app.server.closeAllConnections();
    // Their handlers now fail (a cut body, a refused statement) and clean up after themselves.
    await within(Promise.all([closed, lifecycle.idle()]), SETTLE_MS);
    const released = await releaseHeldClaims(database.db).catch((error: unknown) => {
      app.log.error({ err: error }, 'shutdown: releasing the idempotency claims of ended requests failed');
      return 0;
    });
    if (released > 0) app.log.warn(`shutdown: released ${released} idempotency claim(s) of ended requests`);
  }
  database.refuseWork();
  // A claim whose statement was still queued when the claims above were let go is let go now.
  if (ended > 0) await releaseHeldClaims(database.db).catch(() => 0);
  if (!(await within(database.close(), DATABASE_CLOSE_MS))) app.log.error('shutdown: the database did not close in time');
  return { ended };
}

function openConnections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve) => app.server.getConnections((error, count) => resolve(error ? 0 : count)));
}
