import * as applicationsService from '../services/applications';
import { caller, type Handlers } from './handler';

/** Applications: the scoped list, one application, creating one, saving a step, changing status. */
export const applicationHandlers: Handlers = {
  listApplications: async (request, _reply, { db }) => applicationsService.listApplications(db, caller(request).user, request.query),

  getApplication: async (request, _reply, { db }) => applicationsService.getApplication(db, caller(request).user, request.params.id),

  createApplication: async (request, reply, { db, config }) => {
    const created = await applicationsService.createApplication(db, config, caller(request).user, request.body);
    reply.code(201);
    return created;
  },

  updateApplicationStep: async (request, _reply, { db }) =>
    applicationsService.updateApplicationStep(db, caller(request).user, request.params.step, request.body),

  updateApplicationState: async (request, _reply, { db }) => applicationsService.updateApplicationState(db, caller(request).user, request.body),
};
