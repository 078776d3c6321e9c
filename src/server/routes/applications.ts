import { changeApplicationStatus } from '../services/applications/change-application-status';
import { createApplication } from '../services/applications/create-application';
import { getApplication } from '../services/applications/get-application';
import { listApplications } from '../services/applications/list-applications';
import { saveStep } from '../services/applications/save-step';
import { resendClientInvitation } from '../services/applications/resend-client-invitation';
import { updateApplicationCheck } from '../services/applications/update-application-check';
import { serviceContext, type Handlers } from './handler';

/** Applications: the scoped list, one application, creating one, saving a step, changing status, the review checks. */
export const applicationHandlers: Handlers = {
  listApplications: async (request, _reply, ctx) => listApplications(serviceContext(request, ctx), request.query),

  getApplication: async (request, _reply, ctx) => getApplication(serviceContext(request, ctx), { id: request.params.id }),

  createApplication: async (request, reply, ctx) => {
    const created = await createApplication(serviceContext(request, ctx), request.body);
    reply.code(201);
    return created;
  },

  updateApplicationStep: async (request, _reply, ctx) =>
    saveStep(serviceContext(request, ctx), { step: request.params.step, ...request.body }),

  resendClientInvitation: async (request, _reply, ctx) =>
    resendClientInvitation(serviceContext(request, ctx), { id: request.params.id, email: request.body.email }),

  updateApplicationState: async (request, _reply, ctx) => changeApplicationStatus(serviceContext(request, ctx), request.body),

  updateApplicationCheck: async (request, _reply, ctx) => updateApplicationCheck(serviceContext(request, ctx), request.body),
};
