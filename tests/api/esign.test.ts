import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { startTestServer, type TestServer } from './harness';
import { buildFirmAdmin, buildLoan, buildUser, signInAs } from './factories';
import { buildSigningCase, signingCalls, type SigningCase } from './esign-fixtures';

let server: TestServer;
let staff: { admin: string; root: string };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const post = (url: string, payload: object, token: string, headers: Record<string, string> = {}) =>
  server.call({ method: 'POST', url, payload, token, headers });
const get = (url: string, token: string) => server.call({ method: 'GET', url, token });

type Case = SigningCase;

/** An application accepted by the provider, with the certificate of advice ticked and a loan amount of £40,000. */
const buildCase = (options: Parameters<typeof buildSigningCase>[1] = {}) => buildSigningCase(server, options);

const init = (c: Case, token = staff.admin, headers: Record<string, string> = {}) =>
  post('/api/docusign/init', { applicationId: c.applicationId, state: 'esignPrepared' }, token, headers);
const notify = (c: Case, token = staff.admin, headers: Record<string, string> = {}) =>
  post('/api/docusign/notify', { applicationId: c.applicationId }, token, headers);
const openSigning = (c: Case) => signingCalls(server).openSigning(c);
/** The case prepared and notified: ready for the client to sign. */
async function readyCase(): Promise<Case> {
  const c = await buildCase();
  expect((await init(c)).statusCode).toBe(200);
  expect((await notify(c)).statusCode).toBe(200);
  return c;
}
const lastCode = (c: Case) => signingCalls(server).lastCode(c);
const sendCode = (c: Case, token: string) => signingCalls(server).sendCode(c, token);
const sign = (c: Case, token: string, code: string) => signingCalls(server).sign(c, token, code);
const loansOf = (c: Case) =>
  server.rows<{ id: number; amount_pence: number; status: string }>(
    sql`select id, amount_pence::int as amount_pence, status from loans where application_id = ${c.applicationId}`,
  );
async function download(url: string): Promise<Buffer> {
  const res = await server.call({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}
function tool(name: 'pdftotext' | 'pdfsig', bytes: Uint8Array, args: string[] = []): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'esign-')), 'doc.pdf');
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync(name, name === 'pdftotext' ? [...args, file, '-'] : [file], { encoding: 'utf8' });
  } catch (error) {
    // pdfsig exits non-zero for an invalid signature; its report is still on stdout.
    return String((error as { stdout?: string }).stdout ?? '');
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

beforeAll(async () => {
  server = await startTestServer();
  staff = {
    admin: await signInAs(server, await buildUser(server.db, { role: 'admin' })),
    root: await signInAs(server, await buildUser(server.db, { role: 'root' })),
  };
});

afterAll(async () => {
  await server?.close();
});

describe('accepting an application', () => {
  it('makes the contract set (six files of their types) for the client and their adviser to read', async () => {
    const c = await buildCase({ status: 'submitted' });
    await server.rows(
      sql`update applications set kyc_aml_check = true, credid_check = true, repayment_vehicle = true where id = ${c.applicationId}`,
    );
    const res = await post(
      '/api/applications/state/update',
      { applicationId: c.applicationId, state: 'providerAccepted' },
      staff.admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    const types = await server.rows<{ type: string }>(
      sql`select type from files where application_id = ${c.applicationId} and deleted_at is null order by id`,
    );
    expect(types.map((t) => t.type)).toEqual([
      'secci',
      'loanAgreement',
      'assignmentAgreement',
      'termsAndConditions',
      'preContractExplanations',
      'instructionsToSolicitorsLetter',
    ]);
    // Preparing the envelope makes them again: the earlier unsigned ones are replaced.
    expect((await init(c)).statusCode).toBe(200);
    const live = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from files where application_id = ${c.applicationId} and deleted_at is null`,
    );
    expect(live[0]!.n).toBe(6);
  });
});

describe('POST /docusign/init', () => {
  it('is for staff only: lawyer and client 403, signed out 401', async () => {
    const c = await buildCase();
    expect((await init(c, c.lawyer)).statusCode).toBe(403);
    expect((await init(c, c.client)).statusCode).toBe(403);
    expect(
      (
        await server.call({
          method: 'POST',
          url: '/api/docusign/init',
          payload: { applicationId: c.applicationId, state: 'esignPrepared' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('answers 503 pdfTimeout, not envelopeFailed, when the documents take too long, and records nothing', async () => {
    const defaults = loadConfig({ NODE_ENV: 'test' }).timeouts;
    const hurried = await startTestServer({ timeouts: { ...defaults, pdfTimeoutMs: 50 } });
    try {
      const c = await buildSigningCase(hurried);
      const admin = await signInAs(hurried, await buildUser(hurried.db, { role: 'admin' }));
      const res = await hurried.call({
        method: 'POST',
        url: '/api/docusign/init',
        payload: { applicationId: c.applicationId, state: 'esignPrepared' },
        token: admin,
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ error: 'pdfTimeout' });
      const [row] = await hurried.rows<{ status: string; envelopes: number }>(
        sql`select status, (select count(*)::int from envelopes where application_id = ${c.applicationId}) as envelopes from applications where id = ${c.applicationId}`,
      );
      expect(row).toEqual({ status: 'providerAccepted', envelopes: 0 });
    } finally {
      await hurried.close();
    }
  }, 60_000);

  it('needs the certificate of advice ticked, a loan amount and an accepted application', async () => {
    const noAdvice = await buildCase({ independentAdvice: false });
    const res = await init(noAdvice);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation', fields: { independentAdvice: 'required' } });
    const noAmount = await buildCase({ loanAmount: null });
    expect((await init(noAmount)).json()).toMatchObject({ error: 'validation', fields: { loanAmount: 'required' } });
    expect((await init(await buildCase({ status: 'submitted' }))).statusCode).toBe(409);
    expect((await init({ ...noAdvice, applicationId: 999_999 })).statusCode).toBe(404);
  });

  it('makes the contract set and an envelope with each document’s SHA-256, audited; a replay with the key answers the same', async () => {
    const c = await buildCase();
    const res = await init(c, staff.root, { 'Idempotency-Key': `init-${c.applicationId}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'esignPrepared' });
    expect(body.envelopeId).toMatch(/^[0-9a-f-]{36}$/);
    const replay = await init(c, staff.root, { 'Idempotency-Key': `init-${c.applicationId}` });
    expect(replay.json().envelopeId).toBe(body.envelopeId);

    const documents = await server.rows<{ type: string; sha256: string; key: string }>(
      sql`select d.type, d.sha256, f.key from envelope_documents d join files f on f.id = d.file_id where d.envelope_id = ${body.envelopeId} order by d.position`,
    );
    expect(documents.map((d) => d.type)).toEqual([
      'secci',
      'loanAgreement',
      'assignmentAgreement',
      'termsAndConditions',
      'preContractExplanations',
    ]);
    // The letter of instruction is made with the set, as a staff-only file outside the envelope.
    const letters = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from files where application_id = ${c.applicationId} and type = 'instructionsToSolicitorsLetter' and deleted_at is null`,
    );
    expect(letters[0]!.n).toBe(1);
    const storage = server.storage();
    for (const d of documents) {
      const chunks: Buffer[] = [];
      for await (const chunk of (await storage.open(d.key))!) chunks.push(chunk as Buffer);
      expect(sha256(Buffer.concat(chunks))).toBe(d.sha256);
    }
    const envelopes = await server.rows<{ id: string }>(sql`select id from envelopes where application_id = ${c.applicationId}`);
    expect(envelopes).toHaveLength(1);
    const audit = await server.rows<{ action: string }>(
      sql`select action from audit_events where entity_type = 'application' and entity_id = ${String(c.applicationId)}`,
    );
    expect(audit.map((a) => a.action)).toEqual(['envelopePrepared']);
  });

  it('prints the client’s name, the amounts, the case and the advice fee in the credit agreement', async () => {
    const c = await buildCase();
    await init(c);
    const [row] = await server.rows<{ key: string }>(
      sql`select key from files where application_id = ${c.applicationId} and type = 'loanAgreement' and deleted_at is null`,
    );
    const chunks: Buffer[] = [];
    for await (const chunk of (await server.storage().open(row!.key))!) chunks.push(chunk as Buffer);
    const text = tool('pdftotext', Buffer.concat(chunks), ['-raw']).replace(/\s+/g, ' ');
    expect(text).toContain('Credit Agreement');
    expect(text).toContain('Ms Nina Fairweather');
    expect(text).toContain('£40,000.00');
    expect(text).toContain('NF-2026-77');
    expect(text).toContain('£250.00 plus VAT at 20% (£50.00), £300.00 in total');
    expect(text).toContain('Ashdown Independent Law');
    expect(text).toContain('5 Park Row, Leeds, LS1 4DY');
    expect(text).toMatch(/made on \d{2}\/\d{2}\/\d{4}/);
  });
});

describe('POST /docusign/notify', () => {
  it('is for staff, after the envelope; emails the client the link to the esign-prepared page', async () => {
    const c = await buildCase();
    expect((await notify(c)).statusCode).toBe(409);
    await init(c);
    expect((await notify(c, c.client)).statusCode).toBe(403);
    expect((await notify(c, c.lawyer)).statusCode).toBe(403);
    const res = await notify(c, staff.admin, { 'Idempotency-Key': `notify-${c.applicationId}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'customerNotified' });
    expect((await notify(c, staff.admin, { 'Idempotency-Key': `notify-${c.applicationId}` })).statusCode).toBe(200);
    expect((await notify(c)).statusCode).toBe(409);
    const mails = await server.rows<{ text_body: string; user_type: string }>(
      sql`select text_body, user_type from emails where application_id = ${c.applicationId} and to_address = ${c.clientEmail}`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.user_type).toBe('customer');
    expect(mails[0]!.text_body).toContain(`/applications/${c.applicationId}/application-esign-prepared`);
  });
});

describe('POST /docusign/sign and the signing link', () => {
  it('is the notified client’s only: staff and lawyer 403, another client 404, before notify 409', async () => {
    const c = await buildCase();
    await init(c);
    expect((await post('/api/docusign/sign', { applicationId: c.applicationId }, c.client)).statusCode).toBe(409);
    await notify(c);
    const other = await buildCase();
    expect((await post('/api/docusign/sign', { applicationId: c.applicationId }, other.client)).statusCode).toBe(404);
    expect((await post('/api/docusign/sign', { applicationId: c.applicationId }, staff.admin)).statusCode).toBe(403);
    expect((await post('/api/docusign/sign', { applicationId: c.applicationId }, staff.root)).statusCode).toBe(403);
    expect((await post('/api/docusign/sign', { applicationId: c.applicationId }, c.lawyer)).statusCode).toBe(403);
    const token = await openSigning(c);
    const stored = await server.rows<{ link_token_hash: string }>(
      sql`select link_token_hash from envelopes where application_id = ${c.applicationId} and status = 'notified'`,
    );
    expect(stored[0]!.link_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    // Someone else's link: 404; staff never open it.
    expect((await get(`/api/esign/${token}`, other.client)).statusCode).toBe(404);
    expect((await get(`/api/esign/${token}`, staff.admin)).statusCode).toBe(403);
  });

  it('opens the envelope with a download link per document, records the opening once', async () => {
    const c = await readyCase();
    const token = await openSigning(c);
    const res = await get(`/api/esign/${token}`, c.client);
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json();
    expect(session).toMatchObject({ status: 'ready', signerName: 'Nina Fairweather', caseRef: 'NF-2026-77', signedAt: null });
    expect(session.signerEmail).toMatch(/^c\*\*\*@factory\.test$/);
    expect(session.documents).toHaveLength(5);
    const pdf = await download(session.documents[1].download.url);
    expect(sha256(pdf)).toBe(session.documents[1].sha256);
    await get(`/api/esign/${token}`, c.client);
    const events = await server.rows<{ type: string }>(
      sql`select type from envelope_events where envelope_id = ${session.envelopeId} order by id`,
    );
    expect(events.map((e) => e.type)).toEqual(['created', 'notified', 'opened']);
  });

  it('a new link replaces the last one, and an expired link says so (410)', async () => {
    const c = await readyCase();
    const first = await openSigning(c);
    const second = await openSigning(c);
    expect((await get(`/api/esign/${first}`, c.client)).json()).toMatchObject({ error: 'signingLinkExpired' });
    expect((await get(`/api/esign/${first}`, c.client)).statusCode).toBe(410);
    expect((await get(`/api/esign/${second}`, c.client)).statusCode).toBe(200);
    await server.rows(
      sql`update envelopes set link_expires_at = now() - interval '1 second' where application_id = ${c.applicationId}`,
    );
    expect((await get(`/api/esign/${second}`, c.client)).statusCode).toBe(410);
    expect((await sendCode(c, second)).statusCode).toBe(410);
    expect((await get('/api/esign/not-a-token', c.client)).statusCode).toBe(404);
  });
});

describe('the one-time code', () => {
  it('is emailed through the outbox, for the application; signing without one asks for it', async () => {
    const c = await readyCase();
    const token = await openSigning(c);
    expect((await sign(c, token, '123456')).json()).toMatchObject({ error: 'signingCodeNeeded' });
    const res = await sendCode(c, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sentTo).toMatch(/\*\*\*@/);
    expect(await lastCode(c)).toMatch(/^\d{6}$/);
    const stored = await server.rows<{ code_hash: string }>(
      sql`select code_hash from envelopes where application_id = ${c.applicationId} and status = 'notified'`,
    );
    expect(stored[0]!.code_hash).not.toContain(await lastCode(c));
    expect((await get(`/api/esign/${token}`, c.client)).json().codeExpiresAt).toEqual(expect.any(String));
  });

  it('takes five wrong codes, then needs a new code; a wrong code is an envelope event', async () => {
    const c = await readyCase();
    const token = await openSigning(c);
    await sendCode(c, token);
    const code = await lastCode(c);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      const res = await sign(c, token, wrong);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'signingCodeInvalid' });
    }
    expect((await sign(c, token, wrong)).json()).toMatchObject({ error: 'signingCodeAttempts' });
    const spent = await sign(c, token, code);
    expect(spent.statusCode).toBe(429);
    expect(spent.json()).toMatchObject({ error: 'signingCodeAttempts' });
    const failed = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from envelope_events e join envelopes v on v.id = e.envelope_id where v.application_id = ${c.applicationId} and e.type = 'codeFailed'`,
    );
    expect(failed[0]!.n).toBe(5);
    await sendCode(c, token);
    expect((await sign(c, token, await lastCode(c))).statusCode).toBe(200);
    expect(await loansOf(c)).toHaveLength(1);
  });

  it('expires after ten minutes; at most five codes per link', async () => {
    const c = await readyCase();
    const token = await openSigning(c);
    await sendCode(c, token);
    await server.rows(
      sql`update envelopes set code_expires_at = now() - interval '1 second' where application_id = ${c.applicationId}`,
    );
    expect((await sign(c, token, await lastCode(c))).json()).toMatchObject({ error: 'signingCodeExpired' });
    for (let i = 0; i < 4; i++) expect((await sendCode(c, token)).statusCode).toBe(200);
    const limit = await sendCode(c, token);
    expect(limit.statusCode).toBe(429);
    expect(limit.json()).toMatchObject({ error: 'signingCodeLimit' });
    const expiry = await server.rows<{ minutes: number }>(
      sql`select round(extract(epoch from (code_expires_at - now())) / 60)::int as minutes from envelopes where application_id = ${c.applicationId}`,
    );
    expect(expiry[0]!.minutes).toBe(10);
  });

  it('at most ten codes a day per envelope, however many new links are asked for (429)', async () => {
    const c = await readyCase();
    let token = await openSigning(c);
    for (let sent = 0; sent < 10; sent++) {
      if (sent === 5) token = await openSigning(c);
      expect((await sendCode(c, token)).statusCode).toBe(200);
    }
    const fresh = await openSigning(c);
    const refused = await sendCode(c, fresh);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'tooManyAttempts' });
  });
});

describe('POST /esign/{token}/sign', () => {
  it('needs the agreement ticked and a 6-digit code (400)', async () => {
    const c = await readyCase();
    const token = await openSigning(c);
    expect((await post(`/api/esign/${token}/sign`, { code: '123456', agree: false }, c.client)).statusCode).toBe(400);
    expect((await post(`/api/esign/${token}/sign`, { code: '12345', agree: true }, c.client)).statusCode).toBe(400);
  });

  it('signs every document, completes the application and creates its loan exactly once, even when repeated', async () => {
    const c = await readyCase();
    const token = await openSigning(c);
    await sendCode(c, token);
    const code = await lastCode(c);
    const [a, b] = await Promise.all([sign(c, token, code), sign(c, token, code)]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(b.json()).toEqual(a.json());
    const result = a.json();
    const loans = await loansOf(c);
    expect(loans).toHaveLength(1);
    expect(loans[0]).toMatchObject({ amount_pence: 4_000_000, status: 'open' });
    expect(result).toMatchObject({
      applicationId: c.applicationId,
      status: 'customerAccepted',
      loanId: loans[0]!.id,
      loanReference: `LFAMA${String(loans[0]!.id).padStart(5, '0')}`,
    });
    const again = await sign(c, token, code);
    expect(again.json()).toEqual(result);
    expect(await loansOf(c)).toHaveLength(1);
    const signedCopies = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from files where application_id = ${c.applicationId} and name like '%(signed)'`,
    );
    expect(signedCopies[0]!.n).toBe(5);
    const application = await get(`/api/applications/${c.applicationId}`, c.lawyer);
    expect(application.json()).toMatchObject({ status: 'customerAccepted', loanId: loans[0]!.id });

    // The link now shows the signed envelope; the events and audit are recorded.
    const session = (await get(`/api/esign/${token}`, c.client)).json();
    expect(session).toMatchObject({ status: 'signed', loanId: loans[0]!.id });
    expect((await sendCode(c, token)).statusCode).toBe(409);
    const events = await server.rows<{ type: string; address: string | null }>(
      sql`select type, address from envelope_events where envelope_id = ${result.envelopeId} order by id`,
    );
    expect(events.map((e) => e.type)).toEqual(['created', 'notified', 'codeSent', 'signed']);
    expect(events.at(-1)!.address).toBeTruthy();
    const audit = await server.rows<{ entity_type: string; action: string }>(
      sql`select entity_type, action from audit_events where (entity_type = 'application' and entity_id = ${String(c.applicationId)}) or (entity_type = 'loan' and entity_id = ${String(loans[0]!.id)}) order by id`,
    );
    expect(audit.map((e) => `${e.entity_type}:${e.action}`)).toEqual([
      'application:envelopePrepared',
      'application:clientNotifiedToSign',
      'application:signed',
      'loan:created',
    ]);
  });

  it('tells the lawyer and the client, each with their page', async () => {
    const c = await readyCase();
    const token = await openSigning(c);
    await sendCode(c, token);
    await sign(c, token, await lastCode(c));
    const mails = await server.rows<{ to_address: string; user_type: string; text_body: string }>(
      sql`select to_address, user_type, text_body from emails where application_id = ${c.applicationId} order by id`,
    );
    const lawyerMail = mails.find((m) => m.to_address === c.lawyerEmail);
    expect(lawyerMail?.user_type).toBe('lawyer');
    expect(lawyerMail?.text_body).toContain(`/applications/${c.applicationId}/application-customer-accepted-lawyer`);
    const clientMail = mails.at(-1)!;
    expect(clientMail.to_address).toBe(c.clientEmail);
    expect(clientMail.text_body).toContain(`/applications/${c.applicationId}/application-customer-accepted-provider`);
    // Notice, code, signed notice to the client; the signed notice to the lawyer.
    expect(mails.map((m) => m.user_type)).toEqual(['customer', 'customer', 'lawyer', 'customer']);
  });
});

describe('GET /docusign/signedDocs', () => {
  let c: Case;
  beforeAll(async () => {
    c = await readyCase();
    const token = await openSigning(c);
    await sendCode(c, token);
    expect((await sign(c, token, await lastCode(c))).statusCode).toBe(200);
  });
  const signedDocs = (token: string, applicationId = c.applicationId) =>
    get(`/api/docusign/signedDocs?applicationId=${applicationId}`, token);

  it('answers staff, the application’s lawyer and its client; the firm 403, another lawyer or client 404, before signing 404', async () => {
    expect((await signedDocs(staff.admin)).statusCode).toBe(200);
    expect((await signedDocs(staff.root)).statusCode).toBe(200);
    expect((await signedDocs(c.client)).statusCode).toBe(200);
    // The lawyer has 'Download signed docs' too (decision 449, replacing 014).
    const forLawyer = await signedDocs(c.lawyer);
    expect(forLawyer.statusCode, forLawyer.body).toBe(200);
    expect(forLawyer.json().documents).toHaveLength(5);
    const firm = await signInAs(server, await buildFirmAdmin(server.db, { firmId: c.firmId }));
    expect((await signedDocs(firm)).statusCode).toBe(403);
    const other = await readyCase();
    expect((await signedDocs(other.client)).statusCode).toBe(404);
    expect((await signedDocs(other.lawyer)).statusCode).toBe(404);
    expect((await signedDocs(other.client, other.applicationId)).statusCode).toBe(404);
    expect((await signedDocs(other.lawyer, other.applicationId)).statusCode).toBe(404);
  });

  it('says on the record who may download them: once signed in the portal, never for a loan made otherwise', async () => {
    const ability = async (token: string, applicationId = c.applicationId) =>
      (await get(`/api/applications/${applicationId}`, token)).json().abilities.downloadSignedDocuments;
    expect(await ability(c.lawyer)).toBe(true);
    expect(await ability(c.client)).toBe(true);
    expect(await ability(staff.admin)).toBe(true);
    expect(await ability(await signInAs(server, await buildFirmAdmin(server.db, { firmId: c.firmId })))).toBe(false);
    // Prepared and notified, not signed yet.
    const waiting = await readyCase();
    expect(await ability(waiting.lawyer, waiting.applicationId)).toBe(false);
    expect(await ability(waiting.client, waiting.applicationId)).toBe(false);
    // A loan made outside the portal's signing (the demo's, one moved in): nothing signed here to offer.
    const moved = await buildCase();
    await buildLoan(server.db, { applicationId: moved.applicationId });
    await server.rows(sql`update applications set status = 'customerAccepted' where id = ${moved.applicationId}`);
    expect(await ability(moved.client, moved.applicationId)).toBe(false);
    expect((await signedDocs(moved.client, moved.applicationId)).statusCode).toBe(404);
    // The list does not read it (its items carry no envelope).
    const list = await get('/api/applications?abilities=true', c.lawyer);
    expect(list.json().items[0].abilities).not.toHaveProperty('downloadSignedDocuments');
  });

  it('gives each signed document, its download and a tamper check; a changed byte is found', async () => {
    const res = await signedDocs(c.client);
    const body = res.json();
    expect(body.envelopId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.documents).toHaveLength(5);
    expect(body.documents.every((d: { matches: boolean }) => d.matches)).toBe(true);
    const agreement = body.documents.find((d: { type: string }) => d.type === 'loanAgreement');
    const pdf = await download(agreement.download.url);
    expect(sha256(pdf)).toBe(agreement.sha256);

    // The signature: valid, over the whole file; the text carries the certificate page.
    const report = tool('pdfsig', pdf);
    expect(report).toContain('Signature is Valid');
    expect(report).toContain('Total document signed');
    const text = tool('pdftotext', pdf).replace(/\s+/g, ' ');
    expect(text).toContain('Signed electronically by Nina Fairweather');
    expect(text).toContain('Certificate of electronic signature');
    expect(text).toContain(body.envelopId);
    const [original] = await server.rows<{ sha256: string }>(
      sql`select sha256 from envelope_documents where envelope_id = ${body.envelopId} and type = 'loanAgreement'`,
    );
    // The hash wraps across lines in its column.
    expect(text.replace(/\s+/g, '')).toContain(original!.sha256);

    // One byte changed: the signature fails and the tamper check says so.
    const tampered = Buffer.from(pdf);
    tampered[200] = tampered[200]! ^ 1;
    expect(tool('pdfsig', tampered)).not.toContain('Signature is Valid');
    await server.storage().put(agreement.key, tampered);
    const after = (await signedDocs(staff.admin)).json();
    expect(after.documents.find((d: { type: string }) => d.type === 'loanAgreement').matches).toBe(false);
    expect(after.documents.filter((d: { matches: boolean }) => d.matches)).toHaveLength(4);
  });
});
