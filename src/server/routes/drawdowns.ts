import { changeDrawdownState } from '../services/drawdowns/change-drawdown-state';
import { getDrawdown } from '../services/drawdowns/get-drawdown';
import { getDrawdownsAggregate } from '../services/drawdowns/get-drawdowns-aggregate';
import { listDrawdowns } from '../services/drawdowns/list-drawdowns';
import { requestDrawdown } from '../services/drawdowns/request-drawdown';
import { updateDrawdown } from '../services/drawdowns/update-drawdown';
import { serviceContext, type Handlers } from './handler';

/** Drawdowns: the scoped list and overview, one drawdown, a request and its change, its status. */
export const drawdownHandlers: Handlers = {
  listDrawdowns: async (request, _reply, ctx) => listDrawdowns(serviceContext(request, ctx), request.query),

  getDrawdownsAggregate: async (request, _reply, ctx) => getDrawdownsAggregate(serviceContext(request, ctx), request.query),

  getDrawdown: async (request, _reply, ctx) => getDrawdown(serviceContext(request, ctx), { id: request.params.id }),

  createDrawdown: async (request, reply, ctx) => {
    const created = await requestDrawdown(serviceContext(request, ctx), request.body);
    reply.code(201);
    return created;
  },

  updateDrawdown: async (request, _reply, ctx) =>
    updateDrawdown(serviceContext(request, ctx), { id: request.params.id, ...request.body }),

  updateDrawdownState: async (request, _reply, ctx) =>
    changeDrawdownState(serviceContext(request, ctx), { id: request.params.id, ...request.body }),
};
