import { getClient } from '../services/clients/get-client';
import { listClients } from '../services/clients/list-clients';
import { resetClientPassword } from '../services/clients/reset-client-password';
import { updateClient } from '../services/clients/update-client';
import { serviceContext, type Handlers } from './handler';

/** Clients, derived from applications: staff see all, a firm its lawyers', a lawyer their own. */
export const clientHandlers: Handlers = {
  listClients: async (request, _reply, ctx) => listClients(serviceContext(request, ctx), request.query),

  getClient: async (request, _reply, ctx) => getClient(serviceContext(request, ctx), { id: request.params.id }),

  updateClient: async (request, _reply, ctx) => updateClient(serviceContext(request, ctx), request.body),

  resetClientPassword: async (request, reply, ctx) => {
    await resetClientPassword(serviceContext(request, ctx), request.body);
    reply.code(204);
  },
};
