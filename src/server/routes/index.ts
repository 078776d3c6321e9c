import { authHandlers } from './auth';
import { configHandlers } from './config';
import { devHandlers } from './dev';
import type { Handlers } from './handler';
import { userHandlers } from './users';

/** Every implemented operation of openapi.yaml, by operationId. */
export const handlers: Handlers = {
  ...authHandlers,
  ...configHandlers,
  ...devHandlers,
  ...userHandlers,
};
