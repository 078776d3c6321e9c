import * as solicitors from '../services/solicitors';
import { serviceContext, type Handlers } from './handler';

/** Solicitors (independent legal advisors): anyone signed in reads them; staff manage them. */
export const solicitorHandlers: Handlers = {
  listSolicitors: async (request, _reply, ctx) => solicitors.listSolicitors(serviceContext(request, ctx), request.query),

  getSolicitor: async (request, _reply, ctx) => solicitors.getSolicitor(serviceContext(request, ctx), { id: request.params.id }),

  createSolicitor: async (request, reply, ctx) => {
    const solicitor = await solicitors.createSolicitor(serviceContext(request, ctx), request.body);
    reply.code(201);
    return solicitor;
  },

  updateSolicitor: async (request, _reply, ctx) => solicitors.updateSolicitor(serviceContext(request, ctx), request.body),

  deleteSolicitor: async (request, reply, ctx) => {
    await solicitors.deleteSolicitor(serviceContext(request, ctx), { id: request.params.id });
    reply.code(204);
  },
};
