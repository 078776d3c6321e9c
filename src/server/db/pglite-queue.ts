import { AsyncResource } from 'node:async_hooks';

/**
 * The embedded database answers one statement (or one transaction) at a time. Its own queue is
 * first come, first served, so under a burst a request of three statements (its session, its page,
 * its total) went to the back of the queue after each one and waited behind the whole burst three
 * times: every request of the burst finished near its end. This queue sends the database one
 * unit at a time and takes next the statement of a request that has already had one, before the
 * first statement of any request not yet begun: requests finish in about the order they came,
 * each after the ones ahead of it rather than after all of them (docs/decisions.md 672).
 * A transaction is one unit: its statements go to PGlite inside it, past this queue.
 */
export interface StatementQueue {
  /** Runs work when its turn comes, in its caller's async context; its result is the caller's. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Units waiting or running. */
  readonly pending: number;
}

export interface StatementQueueOptions {
  /** The request the caller works for (undefined outside one): db/request-work.ts. */
  requestOf: () => object | undefined;
  /**
   * Awaited before each unit: the event loop takes a turn, so new connections are read between
   * statements (docs/decisions.md 376) and the requests they bring join the queue before the next
   * unit is chosen. Default: a whole turn at most every LOOP_TURN_MS, in between only the answers'
   * callers run (they queue their next statements), so statements still run several to a turn.
   */
  turn?: () => Promise<void>;
}

interface Waiting {
  request: object | undefined;
  /** Runs the work and settles its caller; never rejects. */
  start: () => Promise<void>;
}

/**
 * How long the queue may keep the event loop from reading new connections. A loop turn before
 * every statement halved the staff list's requests a second at 50 connections (the turn's I/O is
 * done once per statement instead of once per several); none at all let a burst's statements run
 * for seconds with no new request read (docs/decisions.md 672).
 */
export const LOOP_TURN_MS = 10;

/**
 * A whole loop turn when LOOP_TURN_MS has passed since the last; otherwise a tick, which runs once
 * the answered statement's caller has gone on (to its next statement, queued ahead).
 */
function loopTurns(): () => Promise<void> {
  let lastTurn = 0;
  return () => {
    const now = performance.now();
    if (now - lastTurn < LOOP_TURN_MS) return new Promise<void>((resolve) => process.nextTick(resolve));
    lastTurn = now;
    return new Promise<void>((resolve) => setImmediate(resolve));
  };
}

export function createStatementQueue({ requestOf, turn = loopTurns() }: StatementQueueOptions): StatementQueue {
  const begun = new WeakSet<object>();
  /** Statements of requests that have had one already. */
  const ahead: Waiting[] = [];
  /** First statements of requests, and work outside any request. */
  const fresh: Waiting[] = [];
  let pending = 0;
  let running = false;

  const runAll = async () => {
    running = true;
    try {
      for (;;) {
        await turn();
        const next = ahead.shift() ?? fresh.shift();
        if (!next) return;
        if (next.request) begun.add(next.request);
        await next.start();
      }
    } finally {
      running = false;
    }
  };

  return {
    get pending() {
      return pending;
    },
    run<T>(work: () => Promise<T>): Promise<T> {
      const request = requestOf();
      pending++;
      return new Promise<T>((resolve, reject) => {
        // Run in the caller's async context: the shutdown's gate reads the request's record. (A
        // resource of our own: AsyncResource.bind also defines deprecated accessors on each
        // function it makes, a cost at every statement.)
        const context = new AsyncResource('embedded-statement');
        const start = () =>
          context.runInAsyncScope(async () => {
            try {
              resolve(await work());
            } catch (error) {
              reject(error);
            } finally {
              pending--;
            }
          });
        (request && begun.has(request) ? ahead : fresh).push({ request, start });
        if (!running) void runAll();
      });
    },
  };
}
