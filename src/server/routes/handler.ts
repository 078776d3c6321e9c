import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/connection';
import type { Authenticated } from '../auth/sessions';
import { AppError } from '../http/app-error';

export interface Context {
  db: Database;
  config: Config;
}

/**
 * A handler gets the request after authentication, validation against the contract and the
 * contract's role and permission check. What it returns is sent as 200 (undefined → 204),
 * serialized by the contract's response schema; it may also set the reply itself.
 */
export type Handler = (request: FastifyRequest, reply: FastifyReply, ctx: Context) => Promise<unknown>;
export type Handlers = Record<string, Handler>;

/** The signed-in caller; handlers of non-public calls can rely on it. */
export function caller(request: FastifyRequest): Authenticated {
  if (!request.auth) throw AppError.unauthorized();
  return request.auth;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authenticated | null;
  }
}
