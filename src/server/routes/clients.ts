import * as clients from '../services/clients';
import { caller, type Handlers } from './handler';

/** Clients, derived from applications: staff see all, a firm its lawyers', a lawyer their own. */
export const clientHandlers: Handlers = {
  listClients: async (request, _reply, { db }) => clients.listClients(db, caller(request).user, request.query),

  getClient: async (request, _reply, { db }) => clients.getClient(db, caller(request).user, request.params.id),

  updateClient: async (request, _reply, { db }) => clients.updateClient(db, caller(request).user, request.body),

  resetClientPassword: async (request, reply, { db, config }) => {
    await clients.resetClientPassword(db, config, caller(request).user, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] });
    reply.code(204);
  },
};
