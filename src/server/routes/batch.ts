import type { FastifyRequest } from 'fastify';
import type { components } from '../../shared/api/schema';
import { journeySteps } from '../../shared/journey/steps';
import { AppError } from '../errors/app-error';
import type { Handlers } from './handler';

type BatchItem = components['schemas']['BatchItem'];
type BatchAnswer = components['schemas']['BatchAnswer'];

/**
 * The writes that may go in a batch (docs/decisions/702-batch-call.md): the ones the outbox sends
 * many of at a time. Each is still run as its own call, so adding one here changes nothing of
 * how it is checked, stored or audited.
 */
const BATCHABLE: readonly { method: BatchItem['method']; path: RegExp }[] = [
  { method: 'POST', path: new RegExp(`^/applications/update/(${journeySteps.join('|')})$`) },
];

export function isBatchable(item: Pick<BatchItem, 'method' | 'path'>): boolean {
  return BATCHABLE.some((allowed) => allowed.method === item.method && allowed.path.test(item.path));
}

/** After one of these the rest is not run: the session ended, or the server failed or is closing. */
function stopsTheRun(status: number): boolean {
  return status === 401 || status >= 500;
}

/** The caller's headers an item is sent with: its session, and what the audit records of its device. */
function forwardedHeaders(request: FastifyRequest, item: BatchItem): Record<string, string> {
  const agent = request.headers['user-agent'];
  return {
    'content-type': 'application/json',
    'idempotency-key': item.idempotencyKey,
    ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    ...(agent ? { 'user-agent': agent } : {}),
  };
}

function answerBody(text: string, contentType: unknown): unknown {
  if (text === '') return undefined;
  if (typeof contentType === 'string' && contentType.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * POST /batch: each item run in order through the server's own routing (`inject`), as the call it
 * names, with the caller's session and address, so authentication, the contract's validation,
 * permissions, idempotency, rate limits and the audit are exactly those of the call sent alone.
 */
export const batchHandlers: Handlers = {
  sendBatch: async (request) => {
    const { requests } = request.body;
    const refused = Object.fromEntries(
      requests.flatMap((item, index) => (isBatchable(item) ? [] : [[`requests.${index}.path`, 'invalid' as const]])),
    );
    if (Object.keys(refused).length > 0) throw AppError.validation(refused);
    const answers: BatchAnswer[] = [];
    for (const item of requests) {
      const answer = await request.server.inject({
        method: item.method,
        url: `/api${item.path}`,
        headers: forwardedHeaders(request, item),
        // The caller's address as the server saw it: limits by address and the audit see the same one.
        remoteAddress: request.ip,
        payload: JSON.stringify(item.body),
      });
      const headers: BatchAnswer['headers'] = {};
      const retryAfter = answer.headers['retry-after'];
      if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
      const replayed = answer.headers['idempotent-replayed'];
      if (replayed !== undefined) headers['idempotent-replayed'] = String(replayed);
      const body = answerBody(answer.body, answer.headers['content-type']);
      answers.push({ status: answer.statusCode, headers, ...(body === undefined ? {} : { body }) });
      if (stopsTheRun(answer.statusCode)) break;
    }
    return { answers };
  },
};
