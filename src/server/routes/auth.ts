import type { FastifyRequest } from 'fastify';
import * as accounts from '../services/accounts';
import { caller, type Handlers } from './handler';

const meta = (request: FastifyRequest): accounts.RequestMeta => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

type Body<T> = FastifyRequest<{ Body: T }>;

/** Sign-in, the session, sign-up through an invitation and the password reset. */
export const authHandlers: Handlers = {
  signIn: async (request, _reply, { db }) => accounts.signIn(db, request.body, meta(request)),

  getSession: async (request) => caller(request).user,

  signOut: async (request, reply, { db }) => {
    const { user, sessionId } = caller(request);
    await accounts.signOut(db, user.id, sessionId);
    reply.code(204);
  },

  validateSignUp: async (request, _reply, { db }) => {
    const { uuid } = (request as Body<{ uuid: string }>).body;
    return { data: [await accounts.validateSignUp(db, uuid)] };
  },

  completeSignUp: async (request, _reply, { db }) => {
    const body = (request as Body<{ login: string; password: string; uuid: string }>).body;
    const { token, user } = await accounts.completeSignUp(db, body, meta(request));
    return { userToken: token, user };
  },

  requestPasswordReset: async (request, reply, { db, config }) => {
    await accounts.requestPasswordReset(db, config, request.body, meta(request));
    reply.code(204);
  },

  validatePasswordReset: async (request, _reply, { db }) =>
    accounts.validatePasswordReset(db, (request as Body<{ token: string; login?: string }>).body),

  updatePassword: async (request, _reply, { db }) =>
    accounts.updatePassword(db, (request as Body<{ token: string; login: string; password: string }>).body, meta(request)),
};
