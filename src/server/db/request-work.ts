import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one request has done to the database so far: whether any of its writes has committed. A
 * shutdown's gate refuses the work of requests still running at its deadline, so that nothing is
 * half-written; a request that has already committed is let finish (its reads, the answer built
 * from them, the answer stored for its Idempotency-Key), because refusing it then would answer a
 * 5xx for a write that was made, and its client's retry would make it again (docs/decisions.md 587).
 */
/**
 * Only a transaction's commit counts: the portal writes a record and its audit entry in one, while
 * the statements a request makes on its own (its idempotency claim, a rate limit's count) are not
 * the work its answer reports.
 */
interface RequestWork {
  committed: boolean;
}

const work = new AsyncLocalStorage<RequestWork>();

/** Runs the rest of a request (its hooks and handler) with its own record (an onRequest hook). */
export function runAsRequestWork(next: () => void): void {
  work.run({ committed: false }, next);
}

/** Notes that the current request's transaction committed. Outside a request, nothing. */
export function noteCommitted(): void {
  const current = work.getStore();
  if (current) current.committed = true;
}

/** Whether the current request has committed a write. */
export function hasCommitted(): boolean {
  return work.getStore()?.committed ?? false;
}

/**
 * The current request's record, as an identity (undefined outside a request): the embedded
 * database's queue lets a request that has begun go ahead of new ones (db/pglite-queue.ts).
 */
export function currentRequestWork(): object | undefined {
  return work.getStore();
}
