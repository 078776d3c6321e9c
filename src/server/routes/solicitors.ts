import * as solicitors from '../services/solicitors';
import { caller, type Handlers } from './handler';

/** Solicitors (independent legal advisors): anyone signed in reads them; staff manage them. */
export const solicitorHandlers: Handlers = {
  listSolicitors: async (request, _reply, { db }) => solicitors.listSolicitors(db, request.query),

  getSolicitor: async (request, _reply, { db }) => solicitors.getSolicitor(db, request.params.id),

  createSolicitor: async (request, reply, { db }) => {
    const solicitor = await solicitors.createSolicitor(db, caller(request).user, request.body);
    reply.code(201);
    return solicitor;
  },

  updateSolicitor: async (request, _reply, { db }) => solicitors.updateSolicitor(db, caller(request).user, request.body),

  deleteSolicitor: async (request, reply, { db }) => {
    await solicitors.deleteSolicitor(db, caller(request).user, request.params.id);
    reply.code(204);
  },
};
