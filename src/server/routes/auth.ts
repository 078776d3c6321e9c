import { answerNoSoonerThan, RESET_ANSWER_MS } from '../auth/steady-answer';
import { completeSignUp } from '../services/accounts/complete-sign-up';
import { requestPasswordReset } from '../services/accounts/request-password-reset';
import { signIn } from '../services/accounts/sign-in';
import { signOut } from '../services/accounts/sign-out';
import { updatePassword } from '../services/accounts/update-password';
import { validatePasswordReset } from '../services/accounts/validate-password-reset';
import { validateSignUp } from '../services/accounts/validate-sign-up';
import { caller, publicContext, serviceContext, type Handlers } from './handler';

/** Sign-in, the session, sign-up through an invitation and the password reset. */
export const authHandlers: Handlers = {
  signIn: async (request, _reply, ctx) => signIn(publicContext(request, ctx), request.body),

  getSession: async (request) => caller(request).user,

  signOut: async (request, reply, ctx) => {
    await signOut(serviceContext(request, ctx), { sessionId: caller(request).sessionId });
    reply.code(204);
  },

  validateSignUp: async (request, _reply, ctx) => ({
    data: [await validateSignUp(publicContext(request, ctx), { uuid: request.body.uuid })],
  }),

  completeSignUp: async (request, _reply, ctx) => {
    const { token, user } = await completeSignUp(publicContext(request, ctx), request.body);
    return { userToken: token, user };
  },

  requestPasswordReset: async (request, reply, ctx) => {
    await answerNoSoonerThan(RESET_ANSWER_MS, () => requestPasswordReset(publicContext(request, ctx), request.body));
    reply.code(204);
  },

  validatePasswordReset: async (request, _reply, ctx) => validatePasswordReset(publicContext(request, ctx), request.body),

  updatePassword: async (request, _reply, ctx) => updatePassword(publicContext(request, ctx), request.body),
};
