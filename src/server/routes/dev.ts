import { readMailbox } from '../mail/mailbox';
import type { Handlers } from './handler';

/** Development-only calls; the app does not register them in production mode. */
export const devHandlers: Handlers = {
  getDevMailbox: async (_request, _reply, { db }) => ({ emails: await readMailbox(db) }),
};
