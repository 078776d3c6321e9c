import { listPushSubscriptions } from '../services/push/list-push-subscriptions';
import { getPushPreferences, updatePushPreferences } from '../services/push/push-preferences';
import { pushPublicKey } from '../services/push/push-public-key';
import { subscribePush } from '../services/push/subscribe-push';
import { unsubscribePush } from '../services/push/unsubscribe-push';
import { caller, serviceContext, type Handlers } from './handler';

/** Web push: the server's public key, the caller's own devices, and the kinds they receive. */
export const pushHandlers: Handlers = {
  getPushPublicKey: async (request, _reply, ctx) => pushPublicKey(serviceContext(request, ctx)),

  listPushSubscriptions: async (request, _reply, ctx) =>
    listPushSubscriptions(serviceContext(request, ctx), { sessionId: caller(request).sessionId }),

  subscribePush: async (request, reply, ctx) => {
    const subscription = await subscribePush(serviceContext(request, ctx), {
      sessionId: caller(request).sessionId,
      body: request.body,
    });
    reply.code(201);
    return subscription;
  },

  unsubscribePush: async (request, reply, ctx) => {
    await unsubscribePush(serviceContext(request, ctx), { id: request.params.id });
    reply.code(204);
  },

  getPushPreferences: async (request, _reply, ctx) => getPushPreferences(serviceContext(request, ctx)),

  updatePushPreferences: async (request, _reply, ctx) => updatePushPreferences(serviceContext(request, ctx), request.body),
};
