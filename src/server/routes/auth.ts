import type { FastifyRequest } from 'fastify';
import { answerNoSoonerThan, RESET_ANSWER_MS } from '../auth/steady-answer';
import * as accounts from '../services/accounts';
import { caller, type Handlers } from './handler';

const meta = (request: FastifyRequest): accounts.RequestMeta => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

/** Sign-in, the session, sign-up through an invitation and the password reset. */
export const authHandlers: Handlers = {
  signIn: async (request, _reply, { db }) => accounts.signIn(db, request.body, meta(request)),

  getSession: async (request) => caller(request).user,

  signOut: async (request, reply, { db }) => {
    const { user, sessionId } = caller(request);
    await accounts.signOut(db, user.id, sessionId);
    reply.code(204);
  },

  validateSignUp: async (request, _reply, { db }) => ({ data: [await accounts.validateSignUp(db, request.body.uuid)] }),

  completeSignUp: async (request, _reply, { db }) => {
    const { token, user } = await accounts.completeSignUp(db, request.body, meta(request));
    return { userToken: token, user };
  },

  requestPasswordReset: async (request, reply, { db, config }) => {
    await answerNoSoonerThan(RESET_ANSWER_MS, () => accounts.requestPasswordReset(db, config, request.body, meta(request)));
    reply.code(204);
  },

  validatePasswordReset: async (request, _reply, { db }) => accounts.validatePasswordReset(db, request.body),

  updatePassword: async (request, _reply, { db }) => accounts.updatePassword(db, request.body, meta(request)),
};
