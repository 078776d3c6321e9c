import { completeSigning } from '../services/esign/complete-signing';
import { getSignedDocuments } from '../services/esign/get-signed-documents';
import { getSigningSession } from '../services/esign/get-signing-session';
import { initEnvelope } from '../services/esign/init-envelope';
import { notifyClientToSign } from '../services/esign/notify-client-to-sign';
import { receiveDocusignEvent } from '../services/esign/receive-docusign-event';
import { sendSigningCode } from '../services/esign/send-signing-code';
import { signDocuments } from '../services/esign/sign-documents';
import { publicContext, serviceContext, type Handlers } from './handler';

/**
 * Electronic signature: the envelope, the client's notice, the signing page's calls, the signed
 * documents, and DocuSign Connect's events (public: the message's HMAC is its credential).
 */
export const esignHandlers: Handlers = {
  initEnvelope: async (request, _reply, ctx) => initEnvelope(serviceContext(request, ctx), request.body),

  notifyClientToSign: async (request, _reply, ctx) => notifyClientToSign(serviceContext(request, ctx), request.body),

  signDocuments: async (request, _reply, ctx) => signDocuments(serviceContext(request, ctx), request.body),

  getSignedDocuments: async (request, _reply, ctx) =>
    getSignedDocuments(serviceContext(request, ctx), { applicationId: request.query.applicationId }),

  getSigningSession: async (request, _reply, ctx) =>
    getSigningSession(serviceContext(request, ctx), { token: request.params.token }),

  sendSigningCode: async (request, _reply, ctx) => sendSigningCode(serviceContext(request, ctx), { token: request.params.token }),

  completeSigning: async (request, _reply, ctx) =>
    completeSigning(serviceContext(request, ctx), { token: request.params.token, ...request.body }),

  receiveDocusignEvent: async (request, _reply, ctx) =>
    receiveDocusignEvent(publicContext(request, ctx), { rawBody: request.rawBody, headers: request.headers, body: request.body }),
};
