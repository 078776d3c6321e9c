/**
 * Where the process is in its life, as /readyz tells a load balancer: serving, or shutting down
 * (SIGTERM or SIGINT received: /readyz answers 503 from then on; docs/decisions.md 565). It also
 * counts the API handlers running, so a shutdown that ended their connections can wait for them
 * to finish cleaning up (a partial upload removed, a claim released) before the database closes.
 */
export interface Lifecycle {
  readonly shuttingDown: boolean;
  beginShutdown(): void;
  /** Runs a handler, counted while it runs. */
  track<T>(work: () => Promise<T>): Promise<T>;
  /** Settles once no handler runs. */
  idle(): Promise<void>;
}

export function createLifecycle(): Lifecycle {
  let shuttingDown = false;
  let running = 0;
  let waiters: (() => void)[] = [];
  return {
    get shuttingDown() {
      return shuttingDown;
    },
    beginShutdown() {
      shuttingDown = true;
    },
    async track(work) {
      running++;
      try {
        return await work();
      } finally {
        if (--running === 0) {
          for (const wake of waiters) wake();
          waiters = [];
        }
      }
    },
    idle() {
      return running === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
  };
}
