import * as firms from '../services/firms';
import { caller, type Handlers } from './handler';

/** Law firms: staff manage them; a firm's own admin reads its page, lawyers and loan totals. */
export const firmHandlers: Handlers = {
  listFirms: async (request, _reply, { db }) => firms.listFirms(db, request.query),

  createFirm: async (request, reply, { db, config }) => {
    const firm = await firms.createFirm(db, config, caller(request).user, request.body);
    reply.code(201);
    return firm;
  },

  updateFirm: async (request, _reply, { db }) => firms.updateFirm(db, caller(request).user, request.body),

  getFirm: async (request, _reply, { db }) => firms.getFirm(db, caller(request).user, request.params.id),

  deleteFirm: async (request, reply, { db }) => {
    await firms.deleteFirm(db, caller(request).user, request.params.id);
    reply.code(204);
  },

  listFirmLawyers: async (request, _reply, { db }) => firms.listFirmLawyers(db, caller(request).user, request.params.id, request.query),

  getFirmLoansAggregate: async (request, _reply, { db }) => firms.getFirmLoansAggregate(db, caller(request).user, request.params.id),
};
