import { getUser } from '../services/users/get-user';
import { listUsers } from '../services/users/list-users';
import { serviceContext, type Handlers } from './handler';

/** Staff's read-only view of accounts (the contract limits it to admin and root). */
export const userHandlers: Handlers = {
  listUsers: async (request, _reply, ctx) => listUsers(serviceContext(request, ctx), request.query),

  getUser: async (request, _reply, ctx) => getUser(serviceContext(request, ctx), { id: request.params.id }),
};
