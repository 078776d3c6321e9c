import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connectSignatureValid, readConnectMessage } from './connect';

const KEY = 'kQ3n1yF0aB9xT2mL5pR8sV4wZ7cE6hJ0uG1dK2nM3oP=';
const body = Buffer.from('{"event":"envelope-completed","data":{"envelopeId":"e1"}}');
const signature = (bytes: Buffer, key = KEY) => createHmac('sha256', key).update(bytes).digest('base64');

describe('connectSignatureValid', () => {
  it('takes base64(HMAC-SHA256(key, raw body)) in X-DocuSign-Signature-1', () => {
    expect(connectSignatureValid(body, { 'x-docusign-signature-1': signature(body) }, [KEY])).toBe(true);
  });

  it('takes any of the headers and any of the keys (a key being replaced)', () => {
    const headers = {
      'x-docusign-signature-1': signature(body, 'old-key-0123456789'),
      'x-docusign-signature-2': signature(body),
    };
    expect(connectSignatureValid(body, headers, [KEY])).toBe(true);
    expect(connectSignatureValid(body, { 'x-docusign-signature-1': signature(body) }, ['another-key-0123456789', KEY])).toBe(
      true,
    );
  });

  it('refuses a missing, forged, truncated or other key’s signature, and a changed body', () => {
    expect(connectSignatureValid(body, {}, [KEY])).toBe(false);
    expect(connectSignatureValid(body, { 'x-docusign-signature-1': '' }, [KEY])).toBe(false);
    expect(connectSignatureValid(body, { 'x-docusign-signature-1': signature(body, 'someone-else-0123456789') }, [KEY])).toBe(
      false,
    );
    expect(connectSignatureValid(body, { 'x-docusign-signature-1': signature(body).slice(0, 20) }, [KEY])).toBe(false);
    const changed = Buffer.from(body.toString().replace('e1', 'e2'));
    expect(connectSignatureValid(changed, { 'x-docusign-signature-1': signature(body) }, [KEY])).toBe(false);
    // The bytes count, not the JSON they parse to.
    const spaced = Buffer.from(body.toString().replace(':', ': '));
    expect(connectSignatureValid(spaced, { 'x-docusign-signature-1': signature(body) }, [KEY])).toBe(false);
  });
});

describe('readConnectMessage', () => {
  it('reads a JSON SIM message and leaves the rest of it aside', () => {
    expect(
      readConnectMessage({
        event: 'envelope-declined',
        retryCount: 2,
        generatedDateTime: '2026-11-25T10:00:00.0000000Z',
        data: {
          accountId: 'a',
          envelopeId: 'e1',
          envelopeSummary: { status: 'declined', recipients: { signers: [{ declinedReason: 'No', name: 'N' }] } },
        },
      }),
    ).toEqual({
      event: 'envelope-declined',
      generatedDateTime: '2026-11-25T10:00:00.0000000Z',
      data: { envelopeId: 'e1', envelopeSummary: { status: 'declined', recipients: { signers: [{ declinedReason: 'No' }] } } },
    });
  });

  it('is undefined for anything else (an aggregate message, no envelope)', () => {
    expect(readConnectMessage({ status: 'completed', envelopeId: 'e1' })).toBeUndefined();
    expect(readConnectMessage({ event: 'envelope-completed', data: {} })).toBeUndefined();
    expect(readConnectMessage('envelope-completed')).toBeUndefined();
  });
});
