import { createHmac, randomBytes, randomUUID, verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A stand-in for DocuSign on 127.0.0.1, answering the calls the portal makes as DocuSign's
 * published descriptions have them:
 * - the OAuth JWT grant: POST /oauth/token (grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer,
 *   assertion = an RS256 JWT whose signature is checked with the integration's public key, and
 *   iss, sub, aud, iat, exp and scope checked) → { access_token, token_type, expires_in };
 * - the eSignature REST API v2.1 (esignature.rest.swagger-v2.1.json), each needing the bearer token:
 *   Envelopes_PostEnvelopes (envelopeDefinition → envelopeSummary, 201), Views_PostEnvelopeRecipientView
 *   (recipientViewRequest → viewUrl, 201), Documents_GetDocument (the PDF, or `certificate`),
 *   Envelopes_PutEnvelope (voiding); refusals as errorDetails { errorCode, message };
 * - Connect JSON SIM messages (connect.schema-v2.json) signed as Connect signs them: the
 *   X-DocuSign-Signature-1 header is base64(HMAC-SHA256(key, body)).
 * A test can make the next call of a kind fail (a status, or no answer at all) and can finish an
 * envelope as its signer would (complete, decline) or void it as its sender would.
 */

export interface FakeDocusignOptions {
  integrationKey: string;
  userId: string;
  accountId: string;
  /** The integration's public key: the JWT assertion's signature is checked with it. */
  publicKey: KeyObject;
  /** The Connect HMAC key the messages are signed with. */
  hmacKey: string;
}

export interface FakeDocument {
  documentId: string;
  name: string;
  /** The bytes sent (documentBase64 decoded). */
  sent: Buffer;
  /** The bytes DocuSign gives back once the envelope is completed: the sent ones, signed. */
  signed: Buffer;
}

export interface FakeEnvelope {
  envelopeId: string;
  status: 'created' | 'sent' | 'delivered' | 'completed' | 'declined' | 'voided';
  emailSubject: string;
  documents: FakeDocument[];
  signers: { recipientId: string; name: string; email: string; clientUserId: string; tabs?: unknown }[];
  eventNotification: Record<string, unknown> | undefined;
  voidedReason?: string;
  declinedReason?: string;
  completedDateTime?: string;
  certificate: Buffer;
}

export type FakeCall = 'token' | 'createEnvelope' | 'recipientView' | 'getDocument' | 'putEnvelope';
type Failure = { status: number; body?: unknown } | { hang: true };

interface Received {
  call: FakeCall | 'unknown';
  method: string;
  path: string;
  body: unknown;
}

/** A PDF small enough to write by hand, with one line of text: enough to be a PDF to whoever checks. */
export function tinyPdf(text: string): Buffer {
  const stream = `BT /F1 12 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};
const refuse = (res: http.ServerResponse, status: number, errorCode: string, message: string) =>
  json(res, status, { errorCode, message });

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeDocusign(options: FakeDocusignOptions) {
  const envelopes = new Map<string, FakeEnvelope>();
  const tokens = new Set<string>();
  const received: Received[] = [];
  const failures = new Map<FakeCall, Failure[]>();
  const hanging = new Set<http.ServerResponse>();
  let tokensIssued = 0;
  let origin = '';

  /** The JWT grant's assertion, checked as DocuSign checks it; the reason it is refused, or undefined. */
  function assertionProblem(assertion: string): string | undefined {
    const parts = assertion.split('.');
    if (parts.length !== 3) return 'not a JWT';
    const [headerPart, claimsPart, signaturePart] = parts as [string, string, string];
    const header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as { alg?: string; typ?: string };
    if (header.alg !== 'RS256') return `alg ${header.alg}`;
    const signed = verify(
      'RSA-SHA256',
      Buffer.from(`${headerPart}.${claimsPart}`),
      options.publicKey,
      Buffer.from(signaturePart, 'base64url'),
    );
    if (!signed) return 'the signature is not the integration key’s';
    const claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8')) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    if (claims.iss !== options.integrationKey) return 'iss is not the integration key';
    if (claims.sub !== options.userId) return 'sub is not the user';
    if (claims.aud !== new URL(origin).host) return `aud ${String(claims.aud)}`;
    if (typeof claims.iat !== 'number' || claims.iat > now + 60) return 'iat';
    if (typeof claims.exp !== 'number' || claims.exp <= now || claims.exp - claims.iat > 3600) return 'exp';
    const scopes = String(claims.scope ?? '').split(' ');
    if (!scopes.includes('signature') || !scopes.includes('impersonation')) return 'scope';
    return undefined;
  }

  /** A failure a test asked for, answered instead of the call; true when it was. */
  function failed(call: FakeCall, res: http.ServerResponse): boolean {
    const failure = failures.get(call)?.shift();
    if (!failure) return false;
    if ('hang' in failure) hanging.add(res);
    else json(res, failure.status, failure.body ?? { errorCode: 'UNSPECIFIED_ERROR', message: 'failing as asked' });
    return true;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const raw = await readBody(req);
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const isJson = (req.headers['content-type'] ?? '').startsWith('application/json');
    const body: unknown = isJson && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : raw.toString('utf8');

    if (method === 'POST' && path === '/oauth/token') {
      received.push({ call: 'token', method, path, body });
      if (failed('token', res)) return;
      const form = new URLSearchParams(raw.toString('utf8'));
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return json(res, 400, { error: 'unsupported_grant_type' });
      const problem = assertionProblem(form.get('assertion') ?? '');
      if (problem) return json(res, 400, { error: 'invalid_grant', error_description: problem });
      const token = randomBytes(24).toString('base64url');
      tokens.add(token);
      tokensIssued++;
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }

    const match =
      /^\/restapi\/v2\.1\/accounts\/([^/]+)\/envelopes(?:\/([^/]+)(?:\/(views\/recipient|documents\/([^/]+)))?)?$/.exec(path);
    const call: FakeCall | 'unknown' = !match
      ? 'unknown'
      : !match[2]
        ? 'createEnvelope'
        : match[3] === 'views/recipient'
          ? 'recipientView'
          : match[4]
            ? 'getDocument'
            : 'putEnvelope';
    received.push({ call, method, path, body });
    if (!match || call === 'unknown') return refuse(res, 404, 'RESOURCE_NOT_FOUND', `no ${method} ${path}`);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) return refuse(res, 401, 'AUTHORIZATION_INVALID_TOKEN', 'The access token is not valid.');
    if (decodeURIComponent(match[1]!) !== options.accountId)
      return refuse(res, 400, 'USER_NOT_ACCOUNT_MEMBER', 'The user is not a member of this account.');
    if (failed(call, res)) return;

    if (call === 'createEnvelope' && method === 'POST') return createEnvelope(body, res);
    const envelope = envelopes.get(decodeURIComponent(match[2]!));
    if (!envelope) return refuse(res, 400, 'ENVELOPE_DOES_NOT_EXIST', 'The envelope does not exist.');
    if (call === 'recipientView' && method === 'POST') return recipientView(envelope, body as Record<string, string>, res);
    if (call === 'getDocument' && method === 'GET') {
      const documentId = decodeURIComponent(match[4]!);
      if (documentId === 'certificate') return pdf(res, envelope.certificate);
      const document = envelope.documents.find((d) => d.documentId === documentId);
      if (!document) return refuse(res, 400, 'DOCUMENT_DOES_NOT_EXIST', 'The document does not exist.');
      return pdf(res, envelope.status === 'completed' ? document.signed : document.sent);
    }
    if (call === 'putEnvelope' && method === 'PUT') {
      const update = body as { status?: string; voidedReason?: string };
      if (update.status !== 'voided' || !update.voidedReason)
        return refuse(res, 400, 'INVALID_REQUEST_PARAMETER', 'Voiding needs status voided and a voidedReason.');
      if (envelope.status === 'completed') return refuse(res, 400, 'ENVELOPE_CANNOT_VOID_INVALID_STATE', 'Completed.');
      envelope.status = 'voided';
      envelope.voidedReason = update.voidedReason;
      return json(res, 200, { envelopeId: envelope.envelopeId });
    }
    return refuse(res, 405, 'METHOD_NOT_ALLOWED', `${method} ${path}`);
  }

  function pdf(res: http.ServerResponse, bytes: Buffer) {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(bytes.length) });
    res.end(bytes);
  }

  function createEnvelope(body: unknown, res: http.ServerResponse) {
    const definition = body as {
      status?: string;
      emailSubject?: string;
      documents?: { documentId?: string; name?: string; documentBase64?: string }[];
      recipients?: { signers?: FakeEnvelope['signers'] };
      eventNotification?: Record<string, unknown>;
    };
    if (!definition.emailSubject) return refuse(res, 400, 'ENVELOPE_IS_INCOMPLETE', 'An emailSubject is required to send.');
    const documents: FakeDocument[] = [];
    for (const document of definition.documents ?? []) {
      const sent = Buffer.from(document.documentBase64 ?? '', 'base64');
      if (!document.documentId || !document.name || sent.subarray(0, 5).toString('latin1') !== '%PDF-')
        return refuse(res, 400, 'INVALID_DOCUMENT', `Document ${document.documentId} is not a PDF.`);
      documents.push({ documentId: document.documentId, name: document.name, sent, signed: Buffer.alloc(0) });
    }
    const signers = definition.recipients?.signers ?? [];
    if (documents.length === 0 || signers.length === 0)
      return refuse(res, 400, 'ENVELOPE_IS_INCOMPLETE', 'An envelope needs documents and a signer.');
    if (signers.some((s) => !s.name || !s.email || !s.recipientId))
      return refuse(res, 400, 'INVALID_RECIPIENT', 'Each signer needs a name, an email and a recipientId.');
    const envelopeId = randomUUID();
    for (const document of documents)
      // What DocuSign gives back once signed: another PDF revision, DocuSign's, after the sent bytes.
      document.signed = Buffer.concat([document.sent, Buffer.from(`\n% signed with DocuSign: envelope ${envelopeId}\n`)]);
    envelopes.set(envelopeId, {
      envelopeId,
      // 'sent' sends it; anything else leaves a draft nobody can sign yet.
      status: definition.status === 'sent' ? 'sent' : 'created',
      emailSubject: definition.emailSubject,
      documents,
      signers,
      eventNotification: definition.eventNotification,
      certificate: tinyPdf(`Certificate of completion ${envelopeId}`),
    });
    return json(res, 201, {
      envelopeId,
      status: envelopes.get(envelopeId)!.status,
      statusDateTime: new Date().toISOString(),
      uri: `/envelopes/${envelopeId}`,
    });
  }

  function recipientView(envelope: FakeEnvelope, request: Record<string, string>, res: http.ServerResponse) {
    const signer = envelope.signers.find((s) => s.clientUserId === request.clientUserId && s.clientUserId);
    if (!signer || signer.name !== request.userName || signer.email !== request.email)
      return refuse(res, 400, 'UNKNOWN_ENVELOPE_RECIPIENT', 'The recipient you have identified is not a valid recipient.');
    if (!request.returnUrl || !request.authenticationMethod)
      return refuse(res, 400, 'INVALID_REQUEST_PARAMETER', 'returnUrl and authenticationMethod are required.');
    if (envelope.status !== 'sent' && envelope.status !== 'delivered')
      return refuse(res, 400, 'ENVELOPE_INVALID_STATUS', `The envelope is ${envelope.status}.`);
    envelope.status = 'delivered';
    return json(res, 201, { url: `${origin}/signing/startinsession.aspx?t=${randomBytes(16).toString('hex')}` });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, 'UNSPECIFIED_ERROR', String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const envelopeOf = (envelopeId: string): FakeEnvelope => {
    const envelope = envelopes.get(envelopeId);
    if (!envelope) throw new Error(`the fake has no envelope ${envelopeId}`);
    return envelope;
  };

  return {
    origin,
    envelopes,
    received,
    get tokensIssued() {
      return tokensIssued;
    },
    /** The next `times` calls of a kind fail so: a status (with errorDetails) or no answer at all. */
    failNext(call: FakeCall, failure: Failure, times = 1) {
      failures.set(call, [...(failures.get(call) ?? []), ...Array.from({ length: times }, () => failure)]);
    },
    /** The signer signed every document: the envelope is completed. */
    complete(envelopeId: string) {
      const envelope = envelopeOf(envelopeId);
      envelope.status = 'completed';
      envelope.completedDateTime = new Date().toISOString();
    },
    decline(envelopeId: string, reason: string) {
      const envelope = envelopeOf(envelopeId);
      envelope.status = 'declined';
      envelope.declinedReason = reason;
    },
    void(envelopeId: string, reason: string) {
      const envelope = envelopeOf(envelopeId);
      envelope.status = 'voided';
      envelope.voidedReason = reason;
    },
    /**
     * The Connect JSON SIM message of the envelope's current status, and its headers as Connect
     * signs it. `retryCount` changes the body (as Connect's retries do) but not the event.
     */
    connectMessage(
      envelopeId: string,
      event: 'envelope-completed' | 'envelope-declined' | 'envelope-voided' | 'envelope-sent',
      extra: { generatedDateTime?: string; retryCount?: number } = {},
    ): { body: string; headers: Record<string, string> } {
      const envelope = envelopeOf(envelopeId);
      const message = {
        event,
        apiVersion: 'v2.1',
        uri: `/restapi/v2.1/accounts/${options.accountId}/envelopes/${envelopeId}`,
        retryCount: extra.retryCount ?? 0,
        configurationId: 10_501_234,
        generatedDateTime: extra.generatedDateTime ?? new Date().toISOString(),
        data: {
          accountId: options.accountId,
          userId: options.userId,
          envelopeId,
          envelopeSummary: {
            status: envelope.status,
            emailSubject: envelope.emailSubject,
            envelopeId,
            completedDateTime: envelope.completedDateTime,
            voidedReason: envelope.voidedReason,
            recipients: {
              signers: envelope.signers.map((s) => ({
                name: s.name,
                email: s.email,
                recipientId: s.recipientId,
                clientUserId: s.clientUserId,
                status: envelope.status === 'declined' ? 'declined' : envelope.status === 'completed' ? 'completed' : 'sent',
                ...(envelope.declinedReason ? { declinedReason: envelope.declinedReason } : {}),
              })),
            },
          },
        },
      };
      const body = JSON.stringify(message);
      return { body, headers: connectHeaders(body, options.hmacKey) };
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The headers Connect sends with a message: its HMAC signature under the key, and the JSON type. */
export function connectHeaders(body: string, hmacKey: string): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'x-authorization-digest': 'HMACSHA256',
    'x-docusign-signature-1': createHmac('sha256', hmacKey).update(body, 'utf8').digest('base64'),
  };
}

export type FakeDocusign = Awaited<ReturnType<typeof startFakeDocusign>>;
