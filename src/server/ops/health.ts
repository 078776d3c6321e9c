import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Database } from '../db/connection';
import type { FileStorage } from '../files/storage';
import type { Lifecycle } from './lifecycle';
import { checkReadiness, type Readiness } from './readiness';

/** A load balancer probing every second or two, from several checkers, gets one check per second. */
const READINESS_REUSE_MS = 1_000;

/**
 * The operations endpoints a load balancer or an orchestrator probes (docs/decisions.md 560-561):
 * - GET /healthz: the process answers (nothing else is looked at: a database outage must not get
 *   every process restarted);
 * - GET /readyz: the database answers with every migration applied and the file store takes a
 *   write; 503 when one does not, and from the moment a shutdown begins.
 * Neither needs a session, counts against a limit, nor says more than its status: the reason a
 * check failed goes to the log at warn, once each time readiness changes. Their requests are
 * logged at warn only, so a probe every second does not fill the request log.
 */
export function registerHealth(
  app: FastifyInstance,
  options: { db: Database; storage: () => FileStorage; lifecycle: Lifecycle },
): void {
  const { db, storage, lifecycle } = options;
  let last: { at: number; answer: Promise<Readiness> } | undefined;
  let wasReady = true;

  const readiness = (): Promise<Readiness> => {
    const now = Date.now();
    if (!last || now - last.at >= READINESS_REUSE_MS) last = { at: now, answer: checkReadiness(db, storage()) };
    return last.answer;
  };

  const answer = (reply: FastifyReply, status: 200 | 503, body: { status: 'ok' | 'unavailable' | 'shuttingDown' }) =>
    reply.code(status).header('Cache-Control', 'no-store').send(body);

  // While shutting down, every answer closes its connection: a kept-alive client reconnects (to another process).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (lifecycle.shuttingDown) reply.header('Connection', 'close');
    return payload;
  });

  // A load balancer asks every few seconds: the answer goes through a compiled serializer, as the API's do.
  const statusSchema = {
    type: 'object',
    properties: { status: { type: 'string', enum: ['ok', 'unavailable', 'shuttingDown'] } },
    required: ['status'],
    additionalProperties: false,
  } as const;
  const routeOptions = { logLevel: 'warn' as const, schema: { response: { 200: statusSchema, 503: statusSchema } } };

  app.get('/healthz', routeOptions, async (_request, reply) => answer(reply, 200, { status: 'ok' }));

  app.get('/readyz', routeOptions, async (_request, reply) => {
    if (lifecycle.shuttingDown) return answer(reply, 503, { status: 'shuttingDown' });
    const result = await readiness();
    if (result.ready !== wasReady) {
      wasReady = result.ready;
      if (result.ready) app.log.warn('ready again: every readiness check passes');
      else app.log.warn({ check: result.failed, reason: result.reason }, `not ready: the ${result.failed} check failed`);
    }
    return result.ready ? answer(reply, 200, { status: 'ok' }) : answer(reply, 503, { status: 'unavailable' });
  });
}
