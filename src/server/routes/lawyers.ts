import * as lawyers from '../services/lawyers';
import { serviceContext, type Handlers } from './handler';

/** Lawyers: staff manage every firm's, a firm admin only their own firm's (others are 404). */
export const lawyerHandlers: Handlers = {
  listLawyers: async (request, _reply, ctx) => lawyers.listLawyers(serviceContext(request, ctx), request.query),

  countLawyers: async (request, _reply, ctx) => lawyers.countLawyers(serviceContext(request, ctx), request.query),

  createLawyer: async (request, reply, ctx) => {
    const lawyer = await lawyers.createLawyer(serviceContext(request, ctx), request.body);
    reply.code(201);
    return lawyer;
  },

  updateLawyer: async (request, _reply, ctx) => lawyers.updateLawyer(serviceContext(request, ctx), request.body),

  getLawyer: async (request, _reply, ctx) => lawyers.getLawyer(serviceContext(request, ctx), { id: request.params.id }),

  deleteLawyer: async (request, reply, ctx) => {
    await lawyers.deleteLawyer(serviceContext(request, ctx), { id: request.params.id });
    reply.code(204);
  },
};
