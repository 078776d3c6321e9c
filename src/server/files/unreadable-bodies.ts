import type { FastifyRequest } from 'fastify';

const unreadableBodies = new WeakSet<FastifyRequest>();

/**
 * The body arrived but could not be read whole (a multipart body without its closing boundary,
 * a part cut short): as for a body that never arrived, its answer is not kept and the retry with
 * the same key runs (docs/decisions.md 540).
 */
export function markBodyUnreadable(request: FastifyRequest): void {
  unreadableBodies.add(request);
}

/** Whether the request's body was marked unreadable (the idempotency keys act on it). */
export function isBodyUnreadable(request: FastifyRequest): boolean {
  return unreadableBodies.has(request);
}
