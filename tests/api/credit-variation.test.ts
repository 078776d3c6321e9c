import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import {
  buildApplication,
  buildClient,
  buildDrawdown,
  buildFirmAdmin,
  buildLawyer,
  buildLoan,
  buildSolicitor,
  buildUser,
  signInAs,
} from './factories';
import { personal, validSteps } from './applications-fixtures';
import { drawdownRequest } from './loans-fixtures';

/**
 * Credit and what was signed (docs/decisions.md, 505-515): staff may raise an open loan's facility,
 * but what lies above the facility the client signed for cannot be drawn until the client signs a
 * variation (a new Credit Agreement through the same envelope, code and signature); lowering it needs
 * no signature, never below what is drawn; every change is audited and read back as the loan's history.
 */

// Each variation lays out a Credit Agreement and signing seals it, in PDF workers: on a busy machine
// that takes longer than the default 30 s a test may run.
vi.setConfig({ testTimeout: 120_000 });

let server: TestServer;
let staff: { admin: string; root: string };

const get = (url: string, token: string) => server.call({ method: 'GET', url, token });
const post = (url: string, payload: object, token: string, headers: Record<string, string> = {}) =>
  server.call({ method: 'POST', url, payload, token, headers });

interface CreditCase {
  applicationId: number;
  loanId: number;
  clientEmail: string;
  lawyerEmail: string;
  tokens: { lawyer: string; client: string; firm: string };
}

/** A signed case: the client's application (with its journey, for the agreement's words) and its open loan of `signed` pounds. */
async function buildCreditCase(signed = 30_000): Promise<CreditCase> {
  const { db } = server;
  const lawyer = await buildLawyer(db);
  const firmAdmin = await buildFirmAdmin(db, { firmId: lawyer.firmId });
  const client = await buildClient(db, { firstName: 'Vera', surname: 'Lindqvist' });
  const solicitor = await buildSolicitor(db, { name: 'Kestrel Independent Law' });
  const application = await buildApplication(db, {
    lawyerId: lawyer.id,
    clientId: client.id,
    status: 'customerAccepted',
    loanAmount: signed,
    steps: {
      personal: personal(client.email),
      case: { ...validSteps.case, caseRef: `CV-${client.id}` },
      independent: { useOwnSolicitor: false, solicitorId: solicitor.id, consent: true, authorised: true },
    },
  });
  const loan = await buildLoan(db, { applicationId: application.id, creditOffered: signed });
  return {
    applicationId: application.id,
    loanId: loan.id,
    clientEmail: client.email,
    lawyerEmail: lawyer.email,
    tokens: {
      lawyer: await signInAs(server, lawyer),
      client: await signInAs(server, client),
      firm: await signInAs(server, firmAdmin),
    },
  };
}

const setAmount = (c: CreditCase, amount: number, token = staff.admin) =>
  post('/api/loans/update', { loanId: c.loanId, applicationId: c.applicationId, amount }, token);
const loanOf = async (c: CreditCase, token = c.tokens.lawyer) => (await get(`/api/loans/${c.loanId}`, token)).json();
const requestDrawdown = (c: CreditCase, amount: number) =>
  post('/api/drawdowns', drawdownRequest(c.applicationId, { amount }), c.tokens.lawyer);
const openSigning = async (c: CreditCase): Promise<string> => {
  const res = await post(`/api/loans/${c.loanId}/variation/sign`, {}, c.tokens.client);
  expect(res.statusCode, res.body).toBe(200);
  const url = res.json().envelopUrl as string;
  expect(url).toMatch(/^\/esign\/[A-Za-z0-9_-]{43}$/);
  return url.slice('/esign/'.length);
};
async function lastCode(c: CreditCase): Promise<string> {
  const [row] = await server.rows<{ text_body: string }>(
    sql`select text_body from emails where to_address = ${c.clientEmail} and subject = 'Your code to sign your documents' order by id desc limit 1`,
  );
  return /one-time code is (\d{6})/.exec(row!.text_body)![1]!;
}
/** The client reads nothing here: asks for a code and signs the link's envelope. */
async function signWithCode(c: CreditCase, token: string) {
  expect((await post(`/api/esign/${token}/code`, {}, c.tokens.client)).statusCode).toBe(200);
  return post(`/api/esign/${token}/sign`, { code: await lastCode(c), agree: true }, c.tokens.client);
}
const loanAudit = (c: CreditCase) =>
  server.rows<{ action: string; from_state: unknown; to_state: Record<string, unknown> | null }>(
    sql`select action, from_state, to_state from audit_events where entity_type = 'loan' and entity_id = ${String(c.loanId)} order by id`,
  );
const variationEnvelopes = (c: CreditCase) =>
  server.rows<{ id: string; status: string; amount_pence: number }>(
    sql`select id, status, amount_pence::float8 as amount_pence from envelopes where loan_id = ${c.loanId} and kind = 'variation' order by created_at, id`,
  );

/** The totals kept by triggers against a recount of every row (docs/decisions.md, 373): loans count their signed facility. */
async function expectTotalsExact(): Promise<void> {
  const maintained = await server.rows(
    sql`select kind, status, count::int as count, amount_pence::float8 as amount from record_totals
      where count <> 0 or amount_pence <> 0 order by kind, status`,
  );
  const counted = await server.rows(
    sql`select * from (
      select 'application' as kind, status, count(*)::int as count, 0::float8 as amount from applications group by status
      union all select 'loan', status, count(*)::int, sum(amount_pence)::float8 from loans group by status
      union all select 'drawdown', status, count(*)::int, sum(amount_pence)::float8 from drawdowns group by status) t
    order by kind, status`,
  );
  expect(maintained).toEqual(counted);
  const [offered] = await server.rows<{ pence: number }>(sql`select coalesce(sum(amount_pence), 0)::float8 as pence from loans`);
  expect((await get('/api/loans/aggregate', staff.admin)).json().loansSum).toBe(offered!.pence / 100);
}

function pdfText(bytes: Uint8Array): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'variation-')), 'doc.pdf');
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
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

describe('raising the facility above what the client signed for', () => {
  it('keeps the signed credit drawable, refuses a drawdown beyond it with its own code, and asks the client to sign', async () => {
    const c = await buildCreditCase(30_000);
    await buildDrawdown(server.db, { loanId: c.loanId, amount: 10_000, status: 'paid' });

    const raised = await setAmount(c, 35_000);
    expect(raised.statusCode, raised.body).toBe(200);
    expect(raised.json()).toEqual({ applicationId: c.applicationId, loanId: c.loanId, amount: 30_000, pendingAmount: 35_000 });
    expect(await loanOf(c)).toMatchObject({
      amount: 30_000,
      pendingAmount: 35_000,
      totalDrawdowns: 10_000,
      creditAvailable: 20_000,
    });

    // Beyond the signed credit but within the raise: the clear code; beyond both: the spec's.
    const waiting = await requestDrawdown(c, 20_000.01);
    expect(waiting.statusCode).toBe(400);
    expect(waiting.json()).toEqual({ error: 'validation', fields: { amount: 'exceedsSignedCredit' } });
    expect((await requestDrawdown(c, 25_000.01)).json().fields).toEqual({ amount: 'exceedsCredit' });
    // Within the signed credit it goes.
    expect((await requestDrawdown(c, 20_000)).statusCode).toBe(201);
    expect(await loanOf(c)).toMatchObject({ creditAvailable: 0, pendingAmount: 35_000 });

    // One envelope, the variation, sent to the client: one Credit Agreement for the new figure.
    const [envelope, ...others] = await variationEnvelopes(c);
    expect(others).toEqual([]);
    expect(envelope).toMatchObject({ status: 'notified', amount_pence: 3_500_000 });
    const documents = await server.rows<{ type: string; name: string; key: string }>(
      sql`select d.type, f.name, f.key from envelope_documents d join files f on f.id = d.file_id where d.envelope_id = ${envelope!.id}`,
    );
    expect(documents.map((d) => [d.type, d.name])).toEqual([['loanAgreement', 'Credit Agreement (variation)']]);

    const mails = await server.rows<{ to_address: string; subject: string; text_body: string }>(
      sql`select to_address, subject, text_body from emails where application_id = ${c.applicationId} order by id`,
    );
    const toClient = mails.find((m) => m.to_address === c.clientEmail);
    expect(toClient?.subject).toMatch(/^Please sign the variation of your loan LFAMA\d{5}$/);
    expect(toClient?.text_body).toContain('£30,000.00 to £35,000.00');
    expect(toClient?.text_body).toContain(`/loans/${c.loanId}`);
    expect(mails.find((m) => m.to_address === c.lawyerEmail)?.subject).toMatch(/waiting for your client's signature/);
    // The client is offered 'sign variation'; nobody else is.
    expect((await loanOf(c, c.tokens.client)).abilities.signVariation).toBe(true);
    expect((await loanOf(c, c.tokens.lawyer)).abilities.signVariation).toBe(false);
    expect((await loanOf(c, staff.admin)).abilities.signVariation).toBe(false);
  });

  it('makes the signed variation the new credit exactly once, through the same code and signature', async () => {
    const c = await buildCreditCase(30_000);
    await buildDrawdown(server.db, { loanId: c.loanId, amount: 30_000, status: 'customerApproved' });
    expect((await setAmount(c, 35_000)).statusCode).toBe(200);
    expect((await requestDrawdown(c, 5_000)).json().fields).toEqual({ amount: 'exceedsSignedCredit' });

    const token = await openSigning(c);
    const session = (await get(`/api/esign/${token}`, c.tokens.client)).json();
    expect(session).toMatchObject({
      kind: 'variation',
      status: 'ready',
      loanId: c.loanId,
      variation: { loanId: c.loanId, amount: 35_000, signedAmount: 30_000 },
    });
    expect(session.documents.map((d: { title: string }) => d.title)).toEqual(['Credit Agreement (variation)']);
    const agreement = await server.call({ method: 'GET', url: session.documents[0].download.url });
    expect(agreement.statusCode).toBe(200);
    const words = pdfText(agreement.rawPayload).replace(/\s+/g, ' ');
    expect(words).toContain('Credit Agreement (variation)');
    expect(words).toContain('Loan facility until this variation is signed £30,000.00');
    expect(words).toContain('Loan facility once it is signed £35,000.00');

    // Signing without a code asks for one; then with the emailed code, twice at once: one signature.
    expect((await post(`/api/esign/${token}/sign`, { code: '000000', agree: true }, c.tokens.client)).json().error).toBe(
      'signingCodeNeeded',
    );
    expect((await post(`/api/esign/${token}/code`, {}, c.tokens.client)).statusCode).toBe(200);
    const code = await lastCode(c);
    const [a, b] = await Promise.all([
      post(`/api/esign/${token}/sign`, { code, agree: true }, c.tokens.client),
      post(`/api/esign/${token}/sign`, { code, agree: true }, c.tokens.client),
    ]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect(a.json()).toMatchObject({ kind: 'variation', loanId: c.loanId, status: 'customerAccepted' });
    expect((await post(`/api/esign/${token}/sign`, { code, agree: true }, c.tokens.client)).json()).toEqual(a.json());

    expect(await loanOf(c)).toMatchObject({ amount: 35_000, pendingAmount: null, creditAvailable: 5_000 });
    expect((await loanAudit(c)).filter((row) => row.action === 'variationSigned')).toHaveLength(1);
    expect((await requestDrawdown(c, 5_000)).statusCode).toBe(201);
    // The signed copy is kept with the application's files; the application's own signed documents stay the contract's.
    const signed = await server.rows<{ name: string }>(
      sql`select name from files where application_id = ${c.applicationId} and name like '%(signed)'`,
    );
    expect(signed.map((f) => f.name)).toEqual(['Credit Agreement (variation) (signed)']);
    // Sealed as the contract's copies are: the copy's PAdES level is recorded, and the signed event lists it.
    const [copy] = await server.rows<{ pades_level: string | null; envelope_id: string }>(
      sql`select d.pades_level, d.envelope_id from envelope_documents d join envelopes e on e.id = d.envelope_id
        where e.loan_id = ${c.loanId} and e.kind = 'variation' and e.status = 'signed'`,
    );
    expect(copy!.pades_level).toMatch(/^B-(B|T|LT)$/);
    const [event] = await server.rows<{ detail: { padesLevels: string[] } }>(
      sql`select detail from envelope_events where envelope_id = ${copy!.envelope_id} and type = 'signed'`,
    );
    expect(event!.detail.padesLevels).toEqual([copy!.pades_level]);
    expect((await get(`/api/docusign/signedDocs?applicationId=${c.applicationId}`, c.tokens.client)).statusCode).toBe(404);
    // The page, and the link once more, say it is signed; no second code.
    expect((await get(`/api/esign/${token}`, c.tokens.client)).json()).toMatchObject({
      status: 'signed',
      variation: { amount: 35_000, signedAmount: 35_000 },
    });
    expect((await post(`/api/esign/${token}/code`, {}, c.tokens.client)).statusCode).toBe(409);
    expect((await post(`/api/loans/${c.loanId}/variation/sign`, {}, c.tokens.client)).json().error).toBe('variationNotPending');
    const told = await server.rows<{ to_address: string; user_type: string }>(
      sql`select to_address, user_type from emails where application_id = ${c.applicationId} and subject like '%the variation is signed' order by id`,
    );
    expect(told.map((m) => m.user_type).sort()).toEqual(['admin', 'customer', 'lawyer']);
    await expectTotalsExact();
  });

  it('replaces a pending variation with a second raise: the first link no longer signs', async () => {
    const c = await buildCreditCase(30_000);
    expect((await setAmount(c, 35_000)).statusCode).toBe(200);
    const firstToken = await openSigning(c);
    expect((await setAmount(c, 40_000)).json()).toMatchObject({ amount: 30_000, pendingAmount: 40_000 });
    expect((await variationEnvelopes(c)).map((e) => [e.status, e.amount_pence])).toEqual([
      ['voided', 3_500_000],
      ['notified', 4_000_000],
    ]);
    expect((await get(`/api/esign/${firstToken}`, c.tokens.client)).statusCode).toBe(410);
    expect((await post(`/api/esign/${firstToken}/code`, {}, c.tokens.client)).statusCode).toBe(410);
    // The replaced agreement is set aside; the live one is for £40,000.
    const live = await server.rows<{ file_name: string }>(
      sql`select file_name from files where application_id = ${c.applicationId} and type = 'loanAgreement' and deleted_at is null`,
    );
    expect(live.map((f) => f.file_name)).toEqual([expect.stringContaining('£40,000.00')]);
    const secondToken = await openSigning(c);
    expect((await get(`/api/esign/${secondToken}`, c.tokens.client)).json().variation).toMatchObject({ amount: 40_000 });
    // Setting the pending figure again sends it again (a new envelope, the last voided).
    expect((await setAmount(c, 40_000)).statusCode).toBe(200);
    expect((await variationEnvelopes(c)).map((e) => e.status)).toEqual(['voided', 'voided', 'notified']);
  });
});

describe('lowering the facility', () => {
  it('needs no signature, withdraws a pending variation, and never goes below what is drawn', async () => {
    const c = await buildCreditCase(30_000);
    await buildDrawdown(server.db, { loanId: c.loanId, amount: 12_000.5, status: 'requested' });
    expect((await setAmount(c, 35_000)).statusCode).toBe(200);
    const token = await openSigning(c);

    const below = await setAmount(c, 12_000.49);
    expect(below.statusCode).toBe(400);
    expect(below.json().fields).toEqual({ amount: 'belowDrawdowns' });
    const lowered = await setAmount(c, 25_000);
    expect(lowered.json()).toEqual({ applicationId: c.applicationId, loanId: c.loanId, amount: 25_000, pendingAmount: null });
    expect(await loanOf(c)).toMatchObject({ amount: 25_000, pendingAmount: null, creditAvailable: 12_999.5 });
    // The variation is withdrawn: its link no longer signs, the client is no longer asked.
    expect((await variationEnvelopes(c)).map((e) => e.status)).toEqual(['voided']);
    expect((await get(`/api/esign/${token}`, c.tokens.client)).statusCode).toBe(410);
    expect((await loanOf(c, c.tokens.client)).abilities.signVariation).toBe(false);
    expect((await post(`/api/loans/${c.loanId}/variation/sign`, {}, c.tokens.client)).json().error).toBe('variationNotPending');

    // Down to exactly what is drawn; the credit left is nothing and the lawyer is no longer offered the form.
    expect((await setAmount(c, 12_000.5)).statusCode).toBe(200);
    expect(await loanOf(c)).toMatchObject({ amount: 12_000.5, creditAvailable: 0, abilities: { requestDrawdown: false } });
    // The signed figure again with nothing pending changes nothing and records nothing.
    const before = (await loanAudit(c)).length;
    expect((await setAmount(c, 12_000.5)).statusCode).toBe(200);
    expect(await loanAudit(c)).toHaveLength(before);
    await expectTotalsExact();
  });

  it('a figure between the signed and the pending one is a new variation for that figure', async () => {
    const c = await buildCreditCase(30_000);
    expect((await setAmount(c, 40_000)).statusCode).toBe(200);
    expect((await setAmount(c, 35_000)).json()).toMatchObject({ amount: 30_000, pendingAmount: 35_000 });
    expect((await variationEnvelopes(c)).map((e) => [e.status, e.amount_pence])).toEqual([
      ['voided', 4_000_000],
      ['notified', 3_500_000],
    ]);
  });

  it('ends with the loan: paid or closed withdraws the pending variation; blocked keeps it signable', async () => {
    const c = await buildCreditCase(30_000);
    expect((await setAmount(c, 35_000)).statusCode).toBe(200);
    expect((await post(`/api/loans/${c.loanId}/state`, { state: 'blocked' }, staff.admin)).statusCode).toBe(200);
    expect((await loanOf(c, c.tokens.client)).abilities.signVariation).toBe(true);
    // Blocked, nobody changes the amount (409 loanNotOpen), but the client may still sign.
    expect((await setAmount(c, 36_000)).json().error).toBe('loanNotOpen');
    expect((await post(`/api/loans/${c.loanId}/state`, { state: 'paid' }, staff.admin)).statusCode).toBe(200);
    expect(await loanOf(c)).toMatchObject({ amount: 30_000, pendingAmount: null, state: 'paid' });
    expect((await variationEnvelopes(c)).map((e) => e.status)).toEqual(['voided']);
    expect((await loanAudit(c)).map((row) => row.action)).toEqual([
      'variationRequested',
      'statusChanged',
      'statusChanged',
      'variationWithdrawn',
    ]);
  });
});

describe('who may do what', () => {
  it('only staff change the amount; only the loan’s client signs its variation', async () => {
    const c = await buildCreditCase(30_000);
    const other = await buildCreditCase(20_000);
    for (const token of [c.tokens.lawyer, c.tokens.client, c.tokens.firm]) {
      const res = await setAmount(c, 35_000, token);
      expect(res.statusCode).toBe(403);
    }
    expect((await setAmount(c, 35_000, staff.root)).statusCode).toBe(200);
    expect((await setAmount({ ...c, loanId: other.loanId }, 25_000)).json().fields).toEqual({ applicationId: 'invalid' });

    const signUrl = `/api/loans/${c.loanId}/variation/sign`;
    expect((await post(signUrl, {}, c.tokens.lawyer)).statusCode).toBe(403);
    expect((await post(signUrl, {}, c.tokens.firm)).statusCode).toBe(403);
    expect((await post(signUrl, {}, staff.admin)).statusCode).toBe(403);
    expect((await post(signUrl, {}, other.tokens.client)).statusCode).toBe(404);
    expect((await server.call({ method: 'POST', url: signUrl, payload: {} })).statusCode).toBe(401);
    // Another client holding the link signs nothing: nobody learns whose it is.
    const token = await openSigning(c);
    expect((await get(`/api/esign/${token}`, other.tokens.client)).statusCode).toBe(404);
    expect((await post(`/api/esign/${token}/code`, {}, other.tokens.client)).statusCode).toBe(404);
    expect((await post(`/api/esign/${token}/sign`, { code: '123456', agree: true }, other.tokens.client)).statusCode).toBe(404);
    expect(await loanOf(c)).toMatchObject({ amount: 30_000, pendingAmount: 35_000 });
    // Nobody out of scope reads the history.
    expect((await get(`/api/loans/${c.loanId}/facility-history`, other.tokens.lawyer)).statusCode).toBe(404);
  });
});

describe('the facility’s history and the application', () => {
  it('reads every change from the audit, newest first, naming the person to staff only', async () => {
    const c = await buildCreditCase(30_000);
    // The loan as contract signing creates it, audited.
    await server.rows(
      sql`insert into audit_events (actor_user_id, entity_type, entity_id, action, to_state)
        values (null, 'loan', ${String(c.loanId)}, 'created', ${JSON.stringify({ status: 'open', amountPence: 3_000_000 })}::jsonb)`,
    );
    await setAmount(c, 35_000);
    await setAmount(c, 36_000);
    const token = await openSigning(c);
    expect((await signWithCode(c, token)).statusCode).toBe(200);
    await setAmount(c, 32_000);

    const history = (await get(`/api/loans/${c.loanId}/facility-history`, c.tokens.client)).json().items;
    expect(
      history.map((h: Record<string, unknown>) => [
        h.event,
        h.amount,
        h.pendingAmount,
        h.previousAmount,
        h.previousPendingAmount,
        h.by,
      ]),
    ).toEqual([
      ['lowered', 32_000, null, 36_000, null, 'provider'],
      ['variationSigned', 36_000, null, 30_000, 36_000, 'client'],
      ['variationRequested', 30_000, 36_000, 30_000, 35_000, 'provider'],
      ['variationRequested', 30_000, 35_000, 30_000, null, 'provider'],
      ['signed', 30_000, null, null, null, null],
    ]);
    expect(history.every((h: { byName: string | null }) => h.byName === null)).toBe(true);
    const asStaff = (await get(`/api/loans/${c.loanId}/facility-history`, staff.admin)).json().items;
    expect(asStaff[0].byName).toMatch(/^Test Admin /);
    expect(asStaff[1].byName).toBe('Vera Lindqvist');

    // Every change is audited with the facility before and after.
    const audit = await loanAudit(c);
    expect(audit.map((row) => row.action)).toEqual([
      'created',
      'variationRequested',
      'variationRequested',
      'variationSigned',
      'amountLowered',
    ]);
    expect(audit[1]!.to_state).toMatchObject({
      amountPence: 3_000_000,
      pendingAmountPence: 3_500_000,
      envelopeId: expect.any(String),
    });
  });

  it('the application shows the loan’s current facility, signed and pending', async () => {
    const c = await buildCreditCase(30_000);
    expect((await get(`/api/applications/${c.applicationId}`, c.tokens.lawyer)).json()).toMatchObject({
      loanAmount: 30_000,
      loanFacility: { loanId: c.loanId, amount: 30_000, pendingAmount: null },
    });
    await setAmount(c, 35_000);
    for (const token of [c.tokens.lawyer, c.tokens.client, staff.admin])
      expect((await get(`/api/applications/${c.applicationId}`, token)).json().loanFacility).toEqual({
        loanId: c.loanId,
        amount: 30_000,
        pendingAmount: 35_000,
      });
    await setAmount(c, 28_000);
    expect((await get(`/api/applications/${c.applicationId}`, c.tokens.client)).json().loanFacility).toMatchObject({
      amount: 28_000,
      pendingAmount: null,
    });
  });
});

describe('the migration of loans raised before variations', () => {
  it('restates a loan raised without a signature to what was signed, the rest pending, and the totals follow', async () => {
    // A database of its own: the restatement reads every loan's audit.
    const own = await startTestServer();
    try {
      const migration = fs.readFileSync(
        fileURLToPath(new URL('../../src/server/db/migrations/0013_credit_variation.sql', import.meta.url)),
        'utf8',
      );
      const restatement = migration.split('--> statement-breakpoint').at(-1)!;
      const lawyer = await buildLawyer(own.db);
      const loanWith = async (pence: number, status: 'open' | 'closed', audit: [string, number][]) => {
        const application = await buildApplication(own.db, { lawyerId: lawyer.id, status: 'customerAccepted' });
        const loan = await buildLoan(own.db, { applicationId: application.id, creditOffered: pence / 100, status });
        for (const [action, amountPence] of audit)
          await own.rows(
            sql`insert into audit_events (entity_type, entity_id, action, to_state)
              values ('loan', ${String(loan.id)}, ${action}, ${JSON.stringify({ amountPence })}::jsonb)`,
          );
        return loan.id;
      };
      // Signed £30,000, raised to £35,000 then £33,000 by staff: £30,000 signed, £33,000 pending.
      const raised = await loanWith(3_300_000, 'open', [
        ['created', 3_000_000],
        ['amountChanged', 3_500_000],
        ['amountChanged', 3_300_000],
      ]);
      // Signed £30,000, lowered to £20,000, raised to £25,000: only £20,000 stands signed.
      const lowered = await loanWith(2_500_000, 'open', [
        ['created', 3_000_000],
        ['amountChanged', 2_000_000],
        ['amountChanged', 2_500_000],
      ]);
      // Raised, then closed: the signed figure, nothing pending.
      const closed = await loanWith(4_000_000, 'closed', [
        ['created', 3_000_000],
        ['amountChanged', 4_000_000],
      ]);
      // Never raised, and one with no audit at all (made before loans were audited): untouched.
      const kept = await loanWith(3_000_000, 'open', [['created', 3_000_000]]);
      const unaudited = await loanWith(1_000_000, 'open', []);

      await own.rows(sql.raw(restatement));

      const rows = await own.rows<{ id: number; amount: number; pending: number | null }>(
        sql`select id, amount_pence::float8 as amount, pending_amount_pence::float8 as pending from loans order by id`,
      );
      const byId = new Map(rows.map((r) => [r.id, [r.amount, r.pending]]));
      expect(byId.get(raised)).toEqual([3_000_000, 3_300_000]);
      expect(byId.get(lowered)).toEqual([2_000_000, 2_500_000]);
      expect(byId.get(closed)).toEqual([3_000_000, null]);
      expect(byId.get(kept)).toEqual([3_000_000, null]);
      expect(byId.get(unaudited)).toEqual([1_000_000, null]);
      const restated = await own.rows<{ entity_id: string; to_state: unknown }>(
        sql`select entity_id, to_state from audit_events where action = 'facilityRestated' order by entity_id::int`,
      );
      expect(restated).toEqual([
        { entity_id: String(raised), to_state: { amountPence: 3_000_000, pendingAmountPence: 3_300_000 } },
        { entity_id: String(lowered), to_state: { amountPence: 2_000_000, pendingAmountPence: 2_500_000 } },
        { entity_id: String(closed), to_state: { amountPence: 3_000_000, pendingAmountPence: null } },
      ]);
      // The kept totals followed the update: they agree with a recount.
      const maintained = await own.rows(
        sql`select status, amount_pence::float8 as amount from record_totals where kind = 'loan' and count <> 0 order by status`,
      );
      const counted = await own.rows(
        sql`select status, sum(amount_pence)::float8 as amount from loans group by status order by status`,
      );
      expect(maintained).toEqual(counted);
    } finally {
      await own.close();
    }
  });
});
