import * as clients from '../services/clients';
import { serviceContext, type Handlers } from './handler';

/** Clients, derived from applications: staff see all, a firm its lawyers', a lawyer their own. */
export const clientHandlers: Handlers = {
  listClients: async (request, _reply, ctx) => clients.listClients(serviceContext(request, ctx), request.query),

  getClient: async (request, _reply, ctx) => clients.getClient(serviceContext(request, ctx), { id: request.params.id }),

  updateClient: async (request, _reply, ctx) => clients.updateClient(serviceContext(request, ctx), request.body),

  resetClientPassword: async (request, reply, ctx) => {
    await clients.resetClientPassword(serviceContext(request, ctx), {
      ...request.body,
      meta: { ip: request.ip, userAgent: request.headers['user-agent'] },
    });
    reply.code(204);
  },
};
