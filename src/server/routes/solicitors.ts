import { createSolicitor } from '../services/solicitors/create-solicitor';
import { deleteSolicitor } from '../services/solicitors/delete-solicitor';
import { getSolicitor } from '../services/solicitors/get-solicitor';
import { listSolicitors } from '../services/solicitors/list-solicitors';
import { updateSolicitor } from '../services/solicitors/update-solicitor';
import { serviceContext, type Handlers } from './handler';

/** Solicitors (independent legal advisors): anyone signed in reads them; staff manage them. */
export const solicitorHandlers: Handlers = {
  listSolicitors: async (request, _reply, ctx) => listSolicitors(serviceContext(request, ctx), request.query),

  getSolicitor: async (request, _reply, ctx) => getSolicitor(serviceContext(request, ctx), { id: request.params.id }),

  createSolicitor: async (request, reply, ctx) => {
    const solicitor = await createSolicitor(serviceContext(request, ctx), request.body);
    reply.code(201);
    return solicitor;
  },

  updateSolicitor: async (request, _reply, ctx) => updateSolicitor(serviceContext(request, ctx), request.body),

  deleteSolicitor: async (request, reply, ctx) => {
    await deleteSolicitor(serviceContext(request, ctx), { id: request.params.id });
    reply.code(204);
  },
};
