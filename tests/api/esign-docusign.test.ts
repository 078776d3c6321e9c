import { createHash, generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { connectHeaders, startFakeDocusign, type FakeDocusign } from '../fakes/docusign';
import { startTestServer, type TestServer } from './harness';
import { buildUser, signInAs } from './factories';
import { buildSigningCase, type SigningCase } from './esign-fixtures';

// ESIGN_PROVIDER=docusign against a stand-in for DocuSign (docs/decisions.md 520-534).

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const HMAC_KEY = 'kQ3n1yF0aB9xT2mL5pR8sV4wZ7cE6hJ0uG1dK2nM3oP=';
const ids = {
  integrationKey: '0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3',
  userId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
  accountId: 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9',
};

let fake: FakeDocusign;
let server: TestServer;
let staff: string;

beforeAll(async () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  fake = await startFakeDocusign({ ...ids, publicKey, hmacKey: HMAC_KEY });
  // Read through loadConfig, as the server reads its environment at start.
  const { esign } = loadConfig({
    NODE_ENV: 'test',
    ESIGN_PROVIDER: 'docusign',
    DOCUSIGN_INTEGRATION_KEY: ids.integrationKey,
    DOCUSIGN_USER_ID: ids.userId,
    DOCUSIGN_ACCOUNT_ID: ids.accountId,
    DOCUSIGN_BASE_PATH: `${fake.origin}/restapi`,
    DOCUSIGN_OAUTH_BASE: fake.origin,
    DOCUSIGN_PRIVATE_KEY: privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
    DOCUSIGN_CONNECT_HMAC_KEY: HMAC_KEY,
    DOCUSIGN_TIMEOUT_MS: '1500',
  });
  server = await startTestServer({ esign, publicUrl: 'https://portal.example.test' });
  staff = await signInAs(server, await buildUser(server.db, { role: 'admin' }));
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const post = (url: string, payload: object, token: string) => server.call({ method: 'POST', url, payload, token });
const init = (c: SigningCase) => post('/api/docusign/init', { applicationId: c.applicationId, state: 'esignPrepared' }, staff);
const notify = (c: SigningCase) => post('/api/docusign/notify', { applicationId: c.applicationId }, staff);
const sign = (c: SigningCase) => post('/api/docusign/sign', { applicationId: c.applicationId }, c.client);
/** Connect posting a message to the portal: the raw body exactly as signed. */
const deliver = (message: { body: string; headers: Record<string, string> }) =>
  server.call({ method: 'POST', url: '/api/docusign/connect', payload: message.body, headers: message.headers });

/** What signing changes: compared before and after a message that must change nothing. */
async function snapshot(c: SigningCase) {
  const [row] = await server.rows<Record<string, unknown>>(sql`
    select a.status,
      (select count(*)::int from loans where application_id = a.id) as loans,
      (select count(*)::int from files where application_id = a.id) as files,
      (select count(*)::int from files where application_id is null) as loose_files,
      (select count(*)::int from emails where application_id = a.id) as emails,
      (select count(*)::int from audit_events) as audits,
      (select count(*)::int from provider_events) as provider_events,
      (select json_agg(json_build_object('id', e.id, 'status', e.status) order by e.created_at) from envelopes e where e.application_id = a.id) as envelopes,
      (select count(*)::int from envelope_events v join envelopes e on e.id = v.envelope_id where e.application_id = a.id) as envelope_events
    from applications a where a.id = ${c.applicationId}`);
  return row!;
}

/** A case prepared and notified: sent to DocuSign, the client told to sign. */
async function readyCase(): Promise<{ c: SigningCase; envelopeId: string }> {
  const c = await buildSigningCase(server);
  const res = await init(c);
  expect(res.statusCode, res.body).toBe(200);
  expect((await notify(c)).statusCode).toBe(200);
  return { c, envelopeId: res.json().envelopeId as string };
}

describe('preparing the envelope with DocuSign', () => {
  it('sends the five documents as prepared, with the client as embedded signer, under the JWT grant', async () => {
    const c = await buildSigningCase(server);
    const tokensBefore = fake.tokensIssued;
    const res = await init(c);
    expect(res.statusCode, res.body).toBe(200);
    const { envelopeId, status } = res.json();
    expect(status).toBe('esignPrepared');

    // DocuSign's envelope is the portal's: the same id, status sent, the client its one embedded signer.
    const sent = fake.envelopes.get(envelopeId)!;
    expect(sent.status).toBe('sent');
    expect(sent.signers).toEqual([
      expect.objectContaining({
        name: 'Nina Fairweather',
        email: c.clientEmail,
        recipientId: '1',
        clientUserId: expect.any(String),
      }),
    ]);
    expect(sent.signers[0]!.clientUserId).toMatch(/^portal-client-\d+$/);
    expect(sent.eventNotification).toMatchObject({
      url: 'https://portal.example.test/api/docusign/connect',
      includeHMAC: 'true',
      requireAcknowledgment: 'true',
      deliveryMode: 'SIM',
      events: ['envelope-completed', 'envelope-declined', 'envelope-voided'],
    });

    // The documents DocuSign holds are, byte for byte, the ones the envelope recorded.
    const recorded = await server.rows<{ position: number; type: string; sha256: string }>(
      sql`select position, type, sha256 from envelope_documents where envelope_id = ${envelopeId} order by position`,
    );
    expect(recorded.map((d) => d.type)).toEqual([
      'secci',
      'loanAgreement',
      'assignmentAgreement',
      'termsAndConditions',
      'preContractExplanations',
    ]);
    expect(sent.documents.map((d) => d.documentId)).toEqual(['1', '2', '3', '4', '5']);
    expect(sent.documents.map((d) => d.name)).toEqual([
      'Pre-Contract Credit Information',
      'Credit Agreement',
      'Assignment Agreement',
      'Terms and Conditions',
      'Pre-Contractual Explanations',
    ]);
    expect(sent.documents.map((d) => sha256(d.sent))).toEqual(recorded.map((d) => d.sha256));

    const [envelope] = await server.rows<{ provider: string; status: string; remote_signer: unknown }>(
      sql`select provider, status, remote_signer from envelopes where id = ${envelopeId}`,
    );
    expect(envelope).toEqual({
      provider: 'docusign',
      status: 'created',
      remote_signer: { name: 'Nina Fairweather', email: c.clientEmail, clientUserId: sent.signers[0]!.clientUserId },
    });
    const [audit] = await server.rows<{ to_state: { provider: string; envelopeId: string } }>(
      sql`select to_state from audit_events where entity_type = 'application' and entity_id = ${String(c.applicationId)} and action = 'envelopePrepared'`,
    );
    expect(audit!.to_state).toMatchObject({ provider: 'docusign', envelopeId });
    // The fake checked the RS256 assertion against the public key; a token is asked for once and kept.
    expect(fake.tokensIssued).toBeLessThanOrEqual(tokensBefore + 1);
    const c2 = await buildSigningCase(server);
    const tokensNow = fake.tokensIssued;
    expect((await init(c2)).statusCode).toBe(200);
    expect(fake.tokensIssued).toBe(tokensNow);
  });

  it('says DocuSign is not answering when it fails (5xx) or stays silent, and records nothing', async () => {
    for (const failure of [{ status: 503 }, { hang: true as const }]) {
      const c = await buildSigningCase(server);
      const before = await snapshot(c);
      const sent = fake.envelopes.size;
      fake.failNext('createEnvelope', failure);
      const started = Date.now();
      const res = await init(c);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ error: 'esignProviderUnavailable' });
      // DOCUSIGN_TIMEOUT_MS is 1500 here: the silent DocuSign is given up on, not waited for.
      expect(Date.now() - started).toBeLessThan(10_000);
      const after = await snapshot(c);
      expect(after.status).toBe('providerAccepted');
      expect(after.envelopes).toBeNull();
      expect(after.loans).toBe(0);
      expect(after.audits).toBe(before.audits);
      expect(fake.envelopes.size).toBe(sent);
      // Once DocuSign answers again, the same call prepares the envelope.
      expect((await init(c)).statusCode).toBe(200);
    }
  });

  it('answers the spec’s envelopeFailed when DocuSign refuses the envelope, recording nothing', async () => {
    const c = await buildSigningCase(server);
    fake.failNext('createEnvelope', { status: 400, body: { errorCode: 'INVALID_DOCUMENT', message: 'bad' } });
    const res = await init(c);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'envelopeFailed' });
    expect((await snapshot(c)).envelopes).toBeNull();
  });

  it('says DocuSign is not answering when the JWT grant fails, and refuses a grant DocuSign refuses', async () => {
    // A fresh token is asked for only once the cached one is dropped: DocuSign answering 401 drops it.
    fake.failNext('createEnvelope', { status: 401, body: { errorCode: 'AUTHORIZATION_INVALID_TOKEN', message: 'expired' } });
    fake.failNext('token', { status: 502 });
    const c = await buildSigningCase(server);
    const res = await init(c);
    expect(res.statusCode).toBe(503);
    expect((await snapshot(c)).envelopes).toBeNull();
    fake.failNext('token', { status: 400, body: { error: 'consent_required' } });
    const refused = await init(c);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'envelopeFailed' });
    expect((await init(c)).statusCode).toBe(200);
  });
});

describe('the client signing at DocuSign', () => {
  it('answers DocuSign’s signing page for the embedded signer, coming back to the application', async () => {
    const { c, envelopeId } = await readyCase();
    const res = await sign(c);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().envelopUrl).toMatch(new RegExp(`^${fake.origin}/signing/`));
    const view = fake.received.filter((r) => r.call === 'recipientView').at(-1)!;
    expect(view.path).toBe(`/restapi/v2.1/accounts/${ids.accountId}/envelopes/${envelopeId}/views/recipient`);
    expect(view.body).toEqual({
      authenticationMethod: 'Password',
      clientUserId: fake.envelopes.get(envelopeId)!.signers[0]!.clientUserId,
      userName: 'Nina Fairweather',
      email: c.clientEmail,
      recipientId: '1',
      returnUrl: `https://portal.example.test/applications/${c.applicationId}/details`,
    });
    const [audit] = await server.rows<{ to_state: Record<string, unknown> }>(
      sql`select to_state from audit_events where entity_id = ${envelopeId} and action = 'signingLinkIssued'`,
    );
    expect(audit!.to_state).toMatchObject({ applicationId: c.applicationId, provider: 'docusign' });
  });

  it('says so when DocuSign does not answer (503) or will not open the envelope (400), changing nothing', async () => {
    const { c, envelopeId } = await readyCase();
    fake.failNext('recipientView', { hang: true });
    const silent = await sign(c);
    expect(silent.statusCode).toBe(503);
    expect(silent.json()).toEqual({ error: 'esignProviderUnavailable' });
    fake.void(envelopeId, 'Voided in the DocuSign console');
    const refused = await sign(c);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'esignProviderRefused' });
    const issued = await server.rows(
      sql`select 1 from audit_events where entity_id = ${envelopeId} and action = 'signingLinkIssued'`,
    );
    expect(issued).toHaveLength(0);
  });
});

describe('DocuSign Connect events', () => {
  it('completed: stores DocuSign’s signed copies, completes the application and creates one loan; a replay changes nothing', async () => {
    const { c, envelopeId } = await readyCase();
    fake.complete(envelopeId);
    const message = fake.connectMessage(envelopeId, 'envelope-completed');
    const res = await deliver(message);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ outcome: 'recorded' });

    const after = await snapshot(c);
    expect(after).toMatchObject({ status: 'customerAccepted', loans: 1 });
    const [loan] = await server.rows<{ amount_pence: number; status: string }>(
      sql`select amount_pence::int as amount_pence, status from loans where application_id = ${c.applicationId}`,
    );
    expect(loan).toEqual({ amount_pence: 4_000_000, status: 'open' });

    // The signed copies are DocuSign's bytes, recorded with their SHA-256, no PAdES level of the portal's.
    const signed = await server.rows<{ signed_sha256: string; pades_level: string | null; timestamp_due_at: Date | null }>(
      sql`select signed_sha256, pades_level, timestamp_due_at from envelope_documents where envelope_id = ${envelopeId} order by position`,
    );
    expect(signed.map((d) => d.signed_sha256)).toEqual(fake.envelopes.get(envelopeId)!.documents.map((d) => sha256(d.signed)));
    expect(signed.every((d) => d.pades_level === null && d.timestamp_due_at === null)).toBe(true);
    const [envelope] = await server.rows<{ status: string; signed_at: Date; signer_user_id: number; certificate: string }>(
      sql`select e.status, e.signed_at, e.signer_user_id, f.name as certificate from envelopes e
          join files f on f.id = e.completion_certificate_file_id where e.id = ${envelopeId}`,
    );
    expect(envelope).toMatchObject({ status: 'signed', certificate: 'Certificate of completion' });
    expect(new Date(envelope!.signed_at).toISOString()).toBe(fake.envelopes.get(envelopeId)!.completedDateTime);

    // Everyone downloads them as they would the built-in provider's, and they match.
    const docs = await server.call({
      method: 'GET',
      url: `/api/docusign/signedDocs?applicationId=${c.applicationId}`,
      token: c.client,
    });
    expect(docs.statusCode).toBe(200);
    expect(docs.json().documents).toHaveLength(5);
    expect(docs.json().documents.every((d: { matches: boolean }) => d.matches)).toBe(true);
    const first = await server.call({ method: 'GET', url: docs.json().documents[0].download.url });
    expect(sha256(first.rawPayload)).toBe(signed[0]!.signed_sha256);

    // The completion is audited without a signed-in actor, and the lawyer and client are told.
    const [audit] = await server.rows<{ actor_user_id: number | null; to_state: Record<string, unknown> }>(
      sql`select actor_user_id, to_state from audit_events where entity_type = 'application' and entity_id = ${String(c.applicationId)} and action = 'signed'`,
    );
    expect(audit).toMatchObject({ actor_user_id: null, to_state: { status: 'customerAccepted', provider: 'docusign' } });
    const subjects = await server.rows<{ subject: string }>(
      sql`select subject from emails where application_id = ${c.applicationId} and subject like '%signed%' order by id`,
    );
    expect(subjects.map((s) => s.subject)).toEqual([
      expect.stringMatching(/^Loan .* created: your client signed the documents$/),
      'You have signed your documents',
    ]);

    // The same event again, and Connect's retry of it (retryCount 1, a different body): nothing new.
    const settled = await snapshot(c);
    const again = await deliver(message);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ outcome: 'replayed' });
    const retry = fake.connectMessage(envelopeId, 'envelope-completed', {
      generatedDateTime: JSON.parse(message.body).generatedDateTime,
      retryCount: 1,
    });
    expect((await deliver(retry)).json()).toEqual({ outcome: 'replayed' });
    expect(await snapshot(c)).toEqual(settled);
  });

  it('creates exactly one loan when two completed events arrive at once', async () => {
    const { c, envelopeId } = await readyCase();
    fake.complete(envelopeId);
    const [a, b] = await Promise.all([
      deliver(fake.connectMessage(envelopeId, 'envelope-completed', { generatedDateTime: '2026-11-25T10:00:00.0000000Z' })),
      deliver(fake.connectMessage(envelopeId, 'envelope-completed', { generatedDateTime: '2026-11-25T10:00:01.0000000Z' })),
    ]);
    expect([a!.statusCode, b!.statusCode]).toEqual([200, 200]);
    expect([a!.json().outcome, b!.json().outcome].sort()).toEqual(['recorded', 'replayed']);
    const after = await snapshot(c);
    expect(after).toMatchObject({ status: 'customerAccepted', loans: 1, provider_events: expect.any(Number) });
    const signedFiles = await server.rows(
      sql`select 1 from files where application_id = ${c.applicationId} and name like '% (signed)' and deleted_at is null`,
    );
    expect(signedFiles).toHaveLength(5);
  });

  it('refuses a forged, missing or stale signature with 401 and changes nothing', async () => {
    const { c, envelopeId } = await readyCase();
    fake.complete(envelopeId);
    const genuine = fake.connectMessage(envelopeId, 'envelope-completed');
    const before = await snapshot(c);
    const forgeries = [
      { body: genuine.body, headers: connectHeaders(genuine.body, 'another-key-of-someone-else=') },
      { body: genuine.body, headers: { 'content-type': 'application/json' } },
      { body: genuine.body, headers: { ...genuine.headers, 'x-docusign-signature-1': 'bm90IGEgc2lnbmF0dXJl' } },
      // Signed, then changed: the signature is over the bytes as sent.
      { body: genuine.body.replace('"retryCount":0', '"retryCount":0 '), headers: genuine.headers },
      { body: JSON.stringify(JSON.parse(genuine.body)), headers: { ...genuine.headers, 'x-docusign-signature-1': '' } },
    ];
    for (const forged of forgeries) {
      const res = await deliver(forged);
      expect(res.statusCode, forged.body.slice(0, 40)).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthorized' });
    }
    expect(await snapshot(c)).toEqual(before);
    // The genuine one, with its signature in a second header (a key being replaced), still works.
    const second = {
      ...genuine.headers,
      'x-docusign-signature-2': genuine.headers['x-docusign-signature-1']!,
      'x-docusign-signature-1': 'AAAA',
    };
    expect((await deliver({ body: genuine.body, headers: second })).json()).toEqual({ outcome: 'recorded' });
  });

  it('answers 503 while DocuSign does not give the signed copies, and records them when Connect sends the event again', async () => {
    const { c, envelopeId } = await readyCase();
    fake.complete(envelopeId);
    const message = fake.connectMessage(envelopeId, 'envelope-completed');
    const before = await snapshot(c);
    fake.failNext('getDocument', { status: 500 });
    const failed = await deliver(message);
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toEqual({ error: 'esignProviderUnavailable' });
    expect(await snapshot(c)).toEqual(before);
    const retried = await deliver(
      fake.connectMessage(envelopeId, 'envelope-completed', {
        generatedDateTime: JSON.parse(message.body).generatedDateTime,
        retryCount: 1,
      }),
    );
    expect(retried.json()).toEqual({ outcome: 'recorded' });
    expect(await snapshot(c)).toMatchObject({ status: 'customerAccepted', loans: 1 });
  });

  it('declined: the envelope ends, the application goes back for staff to prepare again, all are told; a replay changes nothing', async () => {
    const { c, envelopeId } = await readyCase();
    fake.decline(envelopeId, 'The loan amount is wrong');
    const message = fake.connectMessage(envelopeId, 'envelope-declined');
    const res = await deliver(message);
    expect(res.json()).toEqual({ outcome: 'recorded' });
    const after = await snapshot(c);
    expect(after).toMatchObject({ status: 'providerAccepted', loans: 0, envelopes: [{ id: envelopeId, status: 'declined' }] });
    const [event] = await server.rows<{ detail: Record<string, unknown> }>(
      sql`select detail from envelope_events where envelope_id = ${envelopeId} and type = 'declined'`,
    );
    expect(event!.detail).toMatchObject({ by: 'docusign', reason: 'The loan amount is wrong' });
    const told = await server.rows<{ to_address: string; subject: string; text_body: string }>(
      sql`select to_address, subject, text_body from emails where application_id = ${c.applicationId} and subject like '%declined%' order by id`,
    );
    expect(told.map((e) => [e.to_address, e.subject])).toEqual([
      [server.config.brand.email, 'The client declined to sign the documents'],
      [c.lawyerEmail, 'The client declined to sign the documents'],
      [c.clientEmail, 'You declined to sign your documents'],
    ]);
    expect(told[0]!.text_body).toContain('The loan amount is wrong');
    expect((await deliver(message)).json()).toEqual({ outcome: 'replayed' });
    expect(await snapshot(c)).toEqual(after);

    // The client cannot sign it; staff prepare the documents again and a new envelope goes to DocuSign.
    expect((await sign(c)).statusCode).toBe(409);
    const again = await init(c);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().envelopeId).not.toBe(envelopeId);
    expect(fake.envelopes.get(again.json().envelopeId)?.status).toBe('sent');
  });

  it('voided at DocuSign: recorded the same way; one voided by the portal when it prepared again changes nothing', async () => {
    const { c, envelopeId } = await readyCase();
    fake.void(envelopeId, 'Envelope has expired.');
    expect((await deliver(fake.connectMessage(envelopeId, 'envelope-voided'))).json()).toEqual({ outcome: 'recorded' });
    expect(await snapshot(c)).toMatchObject({ status: 'providerAccepted', envelopes: [{ id: envelopeId, status: 'voided' }] });
    const [event] = await server.rows<{ detail: Record<string, unknown> }>(
      sql`select detail from envelope_events where envelope_id = ${envelopeId} and type = 'voided'`,
    );
    expect(event!.detail).toMatchObject({ by: 'docusign', reason: 'Envelope has expired.' });

    // Prepared again: the new envelope is the application's; a late event of the old one changes nothing.
    expect((await init(c)).statusCode).toBe(200);
    const before = await snapshot(c);
    const late = fake.connectMessage(envelopeId, 'envelope-voided', { generatedDateTime: '2026-11-25T11:00:00Z' });
    expect((await deliver(late)).json()).toEqual({ outcome: 'replayed' });
    expect(await snapshot(c)).toEqual(before);
  });

  it('ignores events it does not act on and envelopes that are not the portal’s', async () => {
    const { c, envelopeId } = await readyCase();
    const before = await snapshot(c);
    expect((await deliver(fake.connectMessage(envelopeId, 'envelope-sent'))).json()).toEqual({ outcome: 'ignored' });
    const unknown = JSON.stringify({ event: 'envelope-completed', generatedDateTime: 'x', data: { envelopeId: 'not-ours' } });
    expect((await deliver({ body: unknown, headers: connectHeaders(unknown, HMAC_KEY) })).json()).toEqual({
      outcome: 'ignored',
    });
    expect(await snapshot(c)).toEqual(before);
  });
});

describe('a variation of a loan signed at DocuSign', () => {
  /** A case whose contract was signed at DocuSign: its loan of £40,000, open. */
  async function signedLoan(): Promise<{ c: SigningCase; loanId: number }> {
    const { c, envelopeId } = await readyCase();
    fake.complete(envelopeId);
    expect((await deliver(fake.connectMessage(envelopeId, 'envelope-completed'))).json()).toEqual({ outcome: 'recorded' });
    const [loan] = await server.rows<{ id: number }>(sql`select id from loans where application_id = ${c.applicationId}`);
    return { c, loanId: loan!.id };
  }
  const raise = (loanId: number, amount: number) => post('/api/loans/update', { loanId, amount }, staff);
  const loanState = async (loanId: number) => {
    const [row] = await server.rows<Record<string, unknown>>(sql`
      select l.amount_pence::int as amount, l.pending_amount_pence::int as pending, a.status as application,
        (select count(*)::int from loans where application_id = a.id) as loans
      from loans l join applications a on a.id = l.application_id where l.id = ${loanId}`);
    return row!;
  };
  const variationOf = async (loanId: number) =>
    server.rows<{ id: string; provider: string; status: string; amount: number }>(
      sql`select id, provider, status, amount_pence::int as amount from envelopes where loan_id = ${loanId} order by created_at`,
    );

  it('sends the variation to DocuSign, opens its signing page from the loan, and Connect’s completed raises the signed facility once', async () => {
    const { c, loanId } = await signedLoan();
    const res = await raise(loanId, 45_000);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ loanId, amount: 40_000, pendingAmount: 45_000 });
    const [variation] = await variationOf(loanId);
    expect(variation).toMatchObject({ provider: 'docusign', status: 'notified', amount: 4_500_000 });
    const sent = fake.envelopes.get(variation!.id)!;
    expect(sent.status).toBe('sent');
    expect(sent.documents).toHaveLength(1);
    expect(sent.signers).toEqual([expect.objectContaining({ name: 'Nina Fairweather', email: c.clientEmail })]);

    // The client's 'sign variation' opens DocuSign's page, which brings them back to their loan.
    const open = await post(`/api/loans/${loanId}/variation/sign`, {}, c.client);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().envelopUrl).toMatch(new RegExp(`^${fake.origin}/signing/`));
    const view = fake.received.filter((r) => r.call === 'recipientView').at(-1)!;
    expect(view.body).toMatchObject({ returnUrl: `https://portal.example.test/loans/${loanId}` });

    fake.complete(variation!.id);
    const message = fake.connectMessage(variation!.id, 'envelope-completed');
    const done = await deliver(message);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ outcome: 'recorded' });
    // The signed facility is the variation's figure; the application is as it was; still one loan.
    expect(await loanState(loanId)).toEqual({ amount: 4_500_000, pending: null, application: 'customerAccepted', loans: 1 });
    expect((await variationOf(loanId))[0]!.status).toBe('signed');
    const [copy] = await server.rows<{ signed_sha256: string; pades_level: string | null }>(
      sql`select signed_sha256, pades_level from envelope_documents where envelope_id = ${variation!.id}`,
    );
    expect(copy).toEqual({ signed_sha256: sha256(sent.documents[0]!.signed), pades_level: null });
    const [audit] = await server.rows<{ actor_user_id: number | null; from_state: object; to_state: object }>(
      sql`select actor_user_id, from_state, to_state from audit_events
          where entity_type = 'loan' and entity_id = ${String(loanId)} and action = 'variationSigned'`,
    );
    expect(audit).toMatchObject({
      actor_user_id: null,
      from_state: { amountPence: 4_000_000, pendingAmountPence: 4_500_000 },
      to_state: { amountPence: 4_500_000, pendingAmountPence: null, envelopeId: variation!.id, provider: 'docusign' },
    });
    const told = await server.rows<{ subject: string }>(
      sql`select subject from emails where application_id = ${c.applicationId} and subject like '%the variation is signed'`,
    );
    expect(told.length).toBeGreaterThanOrEqual(2);

    // The same message again, and DocuSign's retry of it, change nothing.
    const audits = await server.rows(sql`select id from audit_events`);
    expect((await deliver(message)).json()).toEqual({ outcome: 'replayed' });
    const retry = fake.connectMessage(variation!.id, 'envelope-completed', { generatedDateTime: '2026-11-25T12:00:00.0000000Z' });
    expect((await deliver(retry)).json()).toEqual({ outcome: 'replayed' });
    expect(await server.rows(sql`select id from audit_events`)).toHaveLength(audits.length);
    expect(await loanState(loanId)).toMatchObject({ amount: 4_500_000, pending: null });
  });

  it('voids a replaced variation at DocuSign; a declined one leaves the signed credit and the pending figure, and staff are told', async () => {
    const { c, loanId } = await signedLoan();
    expect((await raise(loanId, 45_000)).statusCode).toBe(200);
    expect((await raise(loanId, 50_000)).statusCode).toBe(200);
    const [first, second] = await variationOf(loanId);
    expect(first).toMatchObject({ status: 'voided' });
    expect(fake.envelopes.get(first!.id)!.status).toBe('voided');
    expect(second).toMatchObject({ provider: 'docusign', status: 'notified', amount: 5_000_000 });

    // A completed event for the replaced one is not acted on.
    fake.complete(first!.id);
    expect((await deliver(fake.connectMessage(first!.id, 'envelope-completed'))).json()).toEqual({ outcome: 'ignored' });
    expect(await loanState(loanId)).toMatchObject({ amount: 4_000_000, pending: 5_000_000 });

    fake.decline(second!.id, 'The figure is not what we agreed');
    const declined = await deliver(fake.connectMessage(second!.id, 'envelope-declined'));
    expect(declined.json()).toEqual({ outcome: 'recorded' });
    expect((await variationOf(loanId))[1]!.status).toBe('declined');
    expect(await loanState(loanId)).toEqual({ amount: 4_000_000, pending: 5_000_000, application: 'customerAccepted', loans: 1 });
    const told = await server.rows<{ body: string }>(
      sql`select text_body as body from emails where application_id = ${c.applicationId} and subject like '%the variation was not signed'`,
    );
    expect(told.some((email) => email.body.includes('The figure is not what we agreed'))).toBe(true);
    // Nothing to sign now: staff send a new variation by setting the figure again.
    expect((await post(`/api/loans/${loanId}/variation/sign`, {}, c.client)).json().error).toBe('variationNotPending');
    expect((await raise(loanId, 50_000)).statusCode).toBe(200);
    expect((await variationOf(loanId))[2]).toMatchObject({ provider: 'docusign', status: 'notified', amount: 5_000_000 });
  });

  it('records nothing when DocuSign does not answer or refuses the variation', async () => {
    const { loanId } = await signedLoan();
    const before = await loanState(loanId);
    fake.failNext('createEnvelope', { hang: true });
    const silent = await raise(loanId, 45_000);
    expect(silent.statusCode).toBe(503);
    expect(silent.json()).toEqual({ error: 'esignProviderUnavailable' });
    fake.failNext('createEnvelope', { status: 400, body: { errorCode: 'INVALID_REQUEST_BODY', message: 'no' } });
    const refused = await raise(loanId, 45_000);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'envelopeFailed' });
    expect(await loanState(loanId)).toEqual(before);
    expect(await variationOf(loanId)).toHaveLength(0);
  });
});

describe('POST /docusign/connect with the built-in provider', () => {
  it('is not there (404), whatever the message', async () => {
    const builtin = await startTestServer();
    try {
      const body = JSON.stringify({ event: 'envelope-completed', data: { envelopeId: 'x' } });
      const res = await builtin.call({
        method: 'POST',
        url: '/api/docusign/connect',
        payload: body,
        headers: connectHeaders(body, HMAC_KEY),
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await builtin.close();
    }
  });
});
