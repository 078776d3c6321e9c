/**
 * Where the process is in its life, as /readyz tells a load balancer: serving, or shutting down
 * (SIGTERM or SIGINT received: /readyz answers 503 from then on; docs/decisions.md 565).
 */
export interface Lifecycle {
  readonly shuttingDown: boolean;
  beginShutdown(): void;
}

export function createLifecycle(): Lifecycle {
  let shuttingDown = false;
  return {
    get shuttingDown() {
      return shuttingDown;
    },
    beginShutdown() {
      shuttingDown = true;
    },
  };
}
