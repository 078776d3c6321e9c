import * as usersService from '../services/users';
import type { Handlers } from './handler';

/** Staff's read-only view of accounts (the contract limits it to admin and root). */
export const userHandlers: Handlers = {
  listUsers: async (request, _reply, { db }) => usersService.listUsers(db, request.query),

  getUser: async (request, _reply, { db }) => usersService.getUser(db, request.params.id),
};
