import * as firms from '../services/firms';
import { serviceContext, type Handlers } from './handler';

/** Law firms: staff manage them; a firm's own admin reads its page, lawyers and loan totals. */
export const firmHandlers: Handlers = {
  listFirms: async (request, _reply, ctx) => firms.listFirms(serviceContext(request, ctx), request.query),

  createFirm: async (request, reply, ctx) => {
    const firm = await firms.createFirm(serviceContext(request, ctx), request.body);
    reply.code(201);
    return firm;
  },

  updateFirm: async (request, _reply, ctx) => firms.updateFirm(serviceContext(request, ctx), request.body),

  getFirm: async (request, _reply, ctx) => firms.getFirm(serviceContext(request, ctx), { id: request.params.id }),

  deleteFirm: async (request, reply, ctx) => {
    await firms.deleteFirm(serviceContext(request, ctx), { id: request.params.id });
    reply.code(204);
  },

  listFirmLawyers: async (request, _reply, ctx) =>
    firms.listFirmLawyers(serviceContext(request, ctx), { id: request.params.id, ...request.query }),

  getFirmLoansAggregate: async (request, _reply, ctx) =>
    firms.getFirmLoansAggregate(serviceContext(request, ctx), { id: request.params.id }),
};
