import { createFirm } from '../services/firms/create-firm';
import { deleteFirm } from '../services/firms/delete-firm';
import { getFirm } from '../services/firms/get-firm';
import { getFirmLoansAggregate } from '../services/firms/get-firm-loans-aggregate';
import { listFirmLawyers } from '../services/firms/list-firm-lawyers';
import { listFirms } from '../services/firms/list-firms';
import { updateFirm } from '../services/firms/update-firm';
import { serviceContext, type Handlers } from './handler';

/** Law firms: staff manage them; a firm's own admin reads its page, lawyers and loan totals. */
export const firmHandlers: Handlers = {
  listFirms: async (request, _reply, ctx) => listFirms(serviceContext(request, ctx), request.query),

  createFirm: async (request, reply, ctx) => {
    const firm = await createFirm(serviceContext(request, ctx), request.body);
    reply.code(201);
    return firm;
  },

  updateFirm: async (request, _reply, ctx) => updateFirm(serviceContext(request, ctx), request.body),

  getFirm: async (request, _reply, ctx) => getFirm(serviceContext(request, ctx), { id: request.params.id }),

  deleteFirm: async (request, reply, ctx) => {
    await deleteFirm(serviceContext(request, ctx), { id: request.params.id });
    reply.code(204);
  },

  listFirmLawyers: async (request, _reply, ctx) =>
    listFirmLawyers(serviceContext(request, ctx), { id: request.params.id, ...request.query }),

  getFirmLoansAggregate: async (request, _reply, ctx) =>
    getFirmLoansAggregate(serviceContext(request, ctx), { id: request.params.id }),
};
