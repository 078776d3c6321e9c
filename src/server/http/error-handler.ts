import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { fieldCodesFromAjv } from '../contract/validation';
import { isDatabaseClosing } from '../db/connection';
import { AppError } from '../errors/app-error';
import { isBadValue } from '../errors/database-errors';

/** Every failure becomes an error code on the wire; only a real fault is a 500, and is logged. */
export function errorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof AppError) {
    // A 5xx of ours (a full disk, a PDF past its time) is still a fault someone must see.
    if (error.statusCode >= 500 && error.statusCode !== 501) request.log.error({ err: error, cause: error.cause }, error.code);
    if (error.code === 'tooManyAttempts' && error.extra.retryAfter) reply.header('Retry-After', String(error.extra.retryAfter));
    reply.code(error.statusCode).send({ error: error.code, ...error.extra });
    return;
  }
  if ('validation' in error && error.validation) {
    reply.code(400).send({ error: 'validation', fields: fieldCodesFromAjv(error.validation as never) });
    return;
  }
  // Refused by a shutdown's gate: nothing was written, and another server (or this one, restarted)
  // will take the retry, so it is an answer to try again, not a fault (docs/decisions.md 566).
  if (isDatabaseClosing(error)) {
    reply.header('Retry-After', '2').header('Connection', 'close').code(503).send({ error: 'unavailable' });
    return;
  }
  if (isBadValue(error)) {
    reply.code(400).send({ error: 'badRequest' });
    return;
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own refusals: malformed JSON, a body too large, an unsupported media type.
    const code =
      status === 413 ? 'tooLarge' : status === 415 ? 'unsupportedMediaType' : status === 404 ? 'notFound' : 'badRequest';
    reply.code(status).send({ error: code });
    return;
  }
  request.log.error(error);
  reply.code(500).send({ error: 'unhandled' });
}
