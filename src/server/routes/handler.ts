import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/connection';
import type { Authenticated } from '../auth/sessions';
import { AppError } from '../errors/app-error';
import { fileStorage } from '../files/storage';
import type { PublicContext, ServiceContext } from '../services/context';
import type { operations } from '../../shared/api/schema';

export interface Context {
  db: Database;
  config: Config;
}

export type OperationId = keyof operations;

type JsonBody<Op extends OperationId> = operations[Op] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : unknown;
type Query<Op extends OperationId> = operations[Op]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : unknown;
/** The contract gives the paging parameters defaults, so a handler always has them; others may be absent. */
type WithPagingDefaults<Q> = Q & { [K in Extract<keyof Q, 'page' | 'pageSize'>]-?: NonNullable<Q[K]> };
type PathParams<Op extends OperationId> = operations[Op]['parameters'] extends { path?: infer P } ? NonNullable<P> : unknown;

/**
 * The request of an operation, typed from the types generated from openapi.yaml; by the time a
 * handler runs, the contract has validated it (defaults applied, parameters coerced).
 */
export type OperationRequest<Op extends OperationId> = FastifyRequest<{
  Body: JsonBody<Op>;
  Querystring: WithPagingDefaults<Query<Op>>;
  Params: PathParams<Op>;
}>;

/**
 * A handler gets the request after authentication, validation against the contract and the
 * contract's role and permission check. What it returns is sent as 200 (undefined → 204),
 * serialized by the contract's response schema; it may also set the reply itself.
 */
export type Handler<Op extends OperationId = OperationId> = (
  request: OperationRequest<Op>,
  reply: FastifyReply,
  ctx: Context,
) => Promise<unknown>;

/** Handlers by operationId: a name that is not in the contract does not compile. */
export type Handlers = { [Op in OperationId]?: Handler<Op> };

/** The signed-in caller; handlers of non-public calls can rely on it. */
export function caller(request: FastifyRequest): Authenticated {
  if (!request.auth) throw AppError.unauthorized();
  return request.auth;
}

/** The context a service runs with, for the signed-in caller of this request. */
export function serviceContext(request: FastifyRequest, ctx: Context): ServiceContext {
  return { ...publicContext(request, ctx), actor: caller(request).user };
}

/** The context of a public call: the caller, if anyone is signed in, is not needed. */
export function publicContext(request: FastifyRequest, { db, config }: Context): PublicContext {
  return {
    db,
    config,
    actor: request.auth?.user ?? null,
    storage: fileStorage(config, db),
    origin: { address: request.ip, device: request.headers['user-agent']?.slice(0, 500) ?? null },
    logError: (message, err) => request.log.error({ err }, message),
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authenticated | null;
  }
}
