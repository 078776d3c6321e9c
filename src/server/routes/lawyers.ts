import { countLawyers } from '../services/lawyers/count-lawyers';
import { createLawyer } from '../services/lawyers/create-lawyer';
import { deleteLawyer } from '../services/lawyers/delete-lawyer';
import { getLawyer } from '../services/lawyers/get-lawyer';
import { listLawyers } from '../services/lawyers/list-lawyers';
import { updateLawyer } from '../services/lawyers/update-lawyer';
import { serviceContext, type Handlers } from './handler';

/** Lawyers: staff manage every firm's, a firm admin only their own firm's (others are 404). */
export const lawyerHandlers: Handlers = {
  listLawyers: async (request, _reply, ctx) => listLawyers(serviceContext(request, ctx), request.query),

  countLawyers: async (request, _reply, ctx) => countLawyers(serviceContext(request, ctx), request.query),

  createLawyer: async (request, reply, ctx) => {
    const lawyer = await createLawyer(serviceContext(request, ctx), request.body);
    reply.code(201);
    return lawyer;
  },

  updateLawyer: async (request, _reply, ctx) => updateLawyer(serviceContext(request, ctx), request.body),

  getLawyer: async (request, _reply, ctx) => getLawyer(serviceContext(request, ctx), { id: request.params.id }),

  deleteLawyer: async (request, reply, ctx) => {
    await deleteLawyer(serviceContext(request, ctx), { id: request.params.id });
    reply.code(204);
  },
};
