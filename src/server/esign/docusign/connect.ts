import { createHmac, timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';

/** Connect sends one header per active HMAC key: X-DocuSign-Signature-1 … -100. */
const MAX_SIGNATURE_HEADERS = 100;

/**
 * Whether a Connect message is DocuSign's (docs/decisions.md 526): some X-DocuSign-Signature-N
 * header is base64(HMAC-SHA256(key, the raw body)) for one of the configured keys. The raw bytes
 * are what is checked, never a re-encoding of the parsed JSON, and each comparison is in constant
 * time over the 32-byte digests; a header that is not a digest's length matches nothing.
 */
export function connectSignatureValid(
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  keys: readonly string[],
): boolean {
  const given: Buffer[] = [];
  for (let n = 1; n <= MAX_SIGNATURE_HEADERS; n++) {
    const header = headers[`x-docusign-signature-${n}`];
    for (const value of Array.isArray(header) ? header : header === undefined ? [] : [header]) {
      const digest = Buffer.from(value.trim(), 'base64');
      if (digest.length === 32) given.push(digest);
    }
  }
  let valid = false;
  for (const key of keys) {
    const expected = createHmac('sha256', key).update(rawBody).digest();
    for (const digest of given) if (timingSafeEqual(digest, expected)) valid = true;
  }
  return valid;
}

const signer = v.object({ declinedReason: v.optional(v.string()) });

/**
 * The parts of a Connect JSON SIM message the portal reads (DocuSign's connect.schema-v2.json):
 * `event` (envelope-completed, envelope-declined, envelope-voided …), `generatedDateTime`, and
 * `data.envelopeId` with the optional `data.envelopeSummary`. Anything else in it is ignored.
 */
const connectMessage = v.object({
  event: v.pipe(v.string(), v.minLength(1)),
  generatedDateTime: v.optional(v.string()),
  data: v.object({
    envelopeId: v.pipe(v.string(), v.minLength(1)),
    envelopeSummary: v.optional(
      v.object({
        status: v.optional(v.string()),
        completedDateTime: v.optional(v.string()),
        declinedDateTime: v.optional(v.string()),
        voidedReason: v.optional(v.string()),
        recipients: v.optional(v.object({ signers: v.optional(v.array(signer)) })),
      }),
    ),
  }),
});

export type ConnectMessage = v.InferOutput<typeof connectMessage>;

/** The message, or undefined when it is not a Connect JSON SIM message (an aggregate or XML one, say). */
export function readConnectMessage(body: unknown): ConnectMessage | undefined {
  const parsed = v.safeParse(connectMessage, body);
  return parsed.success ? parsed.output : undefined;
}

/** The Connect events the portal asks for on each envelope and acts on. */
export const CONNECT_EVENTS = ['envelope-completed', 'envelope-declined', 'envelope-voided'] as const;
export type ConnectEvent = (typeof CONNECT_EVENTS)[number];

export function isConnectEvent(event: string): event is ConnectEvent {
  return (CONNECT_EVENTS as readonly string[]).includes(event);
}
