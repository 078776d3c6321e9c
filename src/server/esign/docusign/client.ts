import type { DocusignConfig } from '../../config';
import { ProviderRefused, ProviderUnavailable } from '../provider';
import { accessToken, forgetAccessToken } from './jwt';
import { exchange, jsonOf } from './network';

/*
 * The eSignature REST API v2.1 calls the portal makes, with the field names of DocuSign's OpenAPI
 * description (github.com/docusign/OpenAPI-Specifications, esignature.rest.swagger-v2.1.json):
 * - Envelopes_PostEnvelopes       POST /v2.1/accounts/{accountId}/envelopes (envelopeDefinition → envelopeSummary, 201)
 * - Views_PostEnvelopeRecipientView POST …/envelopes/{envelopeId}/views/recipient (recipientViewRequest → viewUrl, 201)
 * - Documents_GetDocument         GET  …/envelopes/{envelopeId}/documents/{documentId} (the PDF; `certificate` for the certificate of completion)
 * - Envelopes_PutEnvelope         PUT  …/envelopes/{envelopeId} ({ status: 'voided', voidedReason })
 * Errors come as errorDetails ({ errorCode, message }). No SDK: four calls with fetch (decision 525).
 */

/** The parts of envelopeDefinition the portal sends. */
export interface EnvelopeDefinition {
  emailSubject: string;
  status: 'sent';
  documents: { documentId: string; name: string; fileExtension: 'pdf'; order: string; documentBase64: string }[];
  recipients: {
    signers: {
      recipientId: string;
      routingOrder: string;
      name: string;
      email: string;
      clientUserId: string;
      tabs?: { signHereTabs: Record<string, string>[] };
    }[];
  };
  eventNotification?: Record<string, unknown>;
}

export interface RecipientViewRequest {
  authenticationMethod: string;
  clientUserId: string;
  userName: string;
  email: string;
  recipientId: string;
  returnUrl: string;
}

type Method = 'GET' | 'POST' | 'PUT';

export function docusignClient(config: DocusignConfig) {
  const account = `${config.basePath}/v2.1/accounts/${encodeURIComponent(config.accountId)}`;
  const envelopeUrl = (envelopeId: string) => `${account}/envelopes/${encodeURIComponent(envelopeId)}`;

  /** One call with the current access token; a token DocuSign no longer takes (401) is renewed once. */
  async function call(method: Method, url: string, json?: unknown, accept = 'application/json') {
    const what = `${method} ${url}`;
    for (let attempt = 1; ; attempt++) {
      const token = await accessToken(config);
      const answer = await exchange(
        what,
        url,
        {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            accept,
            ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        },
        config.timeoutMs,
      );
      if (answer.status === 401 && attempt === 1) {
        forgetAccessToken(config);
        continue;
      }
      if (answer.status >= 200 && answer.status < 300) return answer;
      const details = jsonOf(answer.body);
      const errorCode = typeof details.errorCode === 'string' ? details.errorCode : undefined;
      const message = `DocuSign answered ${what} with ${answer.status}${errorCode ? ` ${errorCode}` : ''}${
        typeof details.message === 'string' ? `: ${details.message}` : ''
      }`;
      if (answer.status >= 500 || answer.status === 429) throw new ProviderUnavailable(message);
      throw new ProviderRefused(message, answer.status, errorCode);
    }
  }

  /** A field of a JSON answer that must be there, or the answer is not DocuSign's. */
  function field(answer: { body: Buffer }, name: string, what: string): string {
    const value = jsonOf(answer.body)[name];
    if (typeof value !== 'string' || value === '') throw new ProviderUnavailable(`DocuSign's answer to ${what} has no ${name}`);
    return value;
  }

  return {
    /** Envelopes_PostEnvelopes: answers the new envelope's envelopeId. */
    async createEnvelope(definition: EnvelopeDefinition): Promise<string> {
      const answer = await call('POST', `${account}/envelopes`, definition);
      return field(answer, 'envelopeId', 'the new envelope');
    },

    /** Views_PostEnvelopeRecipientView: the embedded signer's signing address (DocuSign: valid 5 minutes, once). */
    async recipientView(envelopeId: string, request: RecipientViewRequest): Promise<string> {
      const answer = await call('POST', `${envelopeUrl(envelopeId)}/views/recipient`, request);
      return field(answer, 'url', 'the recipient view');
    },

    /** Documents_GetDocument: one document as DocuSign holds it now (signed, once completed), or `certificate`. */
    async document(envelopeId: string, documentId: string): Promise<Uint8Array> {
      const url = `${envelopeUrl(envelopeId)}/documents/${encodeURIComponent(documentId)}`;
      const answer = await call('GET', url, undefined, 'application/pdf');
      if (answer.body.subarray(0, 5).toString('latin1') !== '%PDF-')
        throw new ProviderUnavailable(`DocuSign's answer to GET ${url} is not a PDF (${answer.contentType || 'no type'})`);
      return new Uint8Array(answer.body);
    },

    /** Envelopes_PutEnvelope with status voided: the envelope can no longer be signed. */
    async voidEnvelope(envelopeId: string, voidedReason: string): Promise<void> {
      await call('PUT', envelopeUrl(envelopeId), { status: 'voided', voidedReason });
    },
  };
}
