import { applicationHandlers } from './applications';
import { batchHandlers } from './batch';
import { authHandlers } from './auth';
import { configHandlers } from './config';
import { devHandlers } from './dev';
import type { Handlers } from './handler';
import { userHandlers } from './users';
import { firmHandlers } from './firms';
import { lawyerHandlers } from './lawyers';
import { solicitorHandlers } from './solicitors';
import { clientHandlers } from './clients';
import { fileHandlers } from './files';
import { commonHandlers } from './common';
import { loanHandlers } from './loans';
import { drawdownHandlers } from './drawdowns';
import { esignHandlers } from './esign';
import { mailHandlers } from './mail';
import { pushHandlers } from './push';

/** Every implemented operation of openapi.yaml, by operationId. */
export const handlers: Handlers = {
  ...applicationHandlers,
  ...batchHandlers,
  ...authHandlers,
  ...configHandlers,
  ...devHandlers,
  ...userHandlers,
  ...firmHandlers,
  ...lawyerHandlers,
  ...solicitorHandlers,
  ...clientHandlers,
  ...fileHandlers,
  ...commonHandlers,
  ...loanHandlers,
  ...drawdownHandlers,
  ...esignHandlers,
  ...mailHandlers,
  ...pushHandlers,
};
