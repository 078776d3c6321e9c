import * as lawyers from '../services/lawyers';
import { caller, type Handlers } from './handler';

/** Lawyers: staff manage every firm's, a firm admin only their own firm's (others are 404). */
export const lawyerHandlers: Handlers = {
  listLawyers: async (request, _reply, { db }) => lawyers.listLawyers(db, caller(request).user, request.query),

  countLawyers: async (request, _reply, { db }) => lawyers.countLawyers(db, caller(request).user, request.query),

  createLawyer: async (request, reply, { db, config }) => {
    const lawyer = await lawyers.createLawyer(db, config, caller(request).user, request.body);
    reply.code(201);
    return lawyer;
  },

  updateLawyer: async (request, _reply, { db }) => lawyers.updateLawyer(db, caller(request).user, request.body),

  getLawyer: async (request, _reply, { db }) => lawyers.getLawyer(db, caller(request).user, request.params.id),

  deleteLawyer: async (request, reply, { db }) => {
    await lawyers.deleteLawyer(db, caller(request).user, request.params.id);
    reply.code(204);
  },
};
