import type { Handlers } from './handler';

/** Brand settings the client shows in its header, footer and legal copy. */
export const configHandlers: Handlers = {
  getConfig: async (_request, reply, { config }) => {
    reply.header('Cache-Control', 'no-cache');
    return config.brand;
  },
};
