/**
 * The provider's review of an application (docs/decisions.md 270-276): accept and reject, the
 * client's withdrawal, the transitions their own calls make, the review checks, staff documents,
 * the two staff-only document types, document states and the draft loan amount; every role, in
 * and out of scope, and that a refused call changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications } from '../../src/server/db/schema';
import type { ApplicationStatus } from '../../src/shared/rules/statuses';
import { startTestServer, type TestServer } from './harness';
import { buildApplication, buildClient, buildFirmAdmin, buildLawyer, buildUser, signInAs } from './factories';
import { fetchLink, smallPdf, uploadRequest } from './files-helpers';

let server: TestServer;
let pdf: Buffer;
let lawyer: Awaited<ReturnType<typeof buildLawyer>>;
const token = {} as Record<'lawyer' | 'firm' | 'customer' | 'admin' | 'root' | 'otherLawyer' | 'otherCustomer', string>;
let customerId: number;

beforeAll(async () => {
  server = await startTestServer();
  const { db } = server;
  lawyer = await buildLawyer(db);
  const firm = await buildFirmAdmin(db, { firmId: lawyer.firmId });
  const customer = await buildClient(db);
  customerId = customer.id;
  const otherLawyer = await buildLawyer(db);
  const otherCustomer = await buildClient(db);
  token.lawyer = await signInAs(server, lawyer);
  token.firm = await signInAs(server, firm);
  token.customer = await signInAs(server, customer);
  token.admin = await signInAs(server, await buildUser(db, { role: 'admin' }));
  token.root = await signInAs(server, await buildUser(db, { role: 'root' }));
  token.otherLawyer = await signInAs(server, otherLawyer);
  token.otherCustomer = await signInAs(server, otherCustomer);
  pdf = await smallPdf('Certificate');
});
afterAll(async () => {
  await server?.close();
});

const post = (url: string, payload: object, t: string, headers: Record<string, string> = {}) =>
  server.call({ method: 'POST', url, payload, token: t, headers });
const get = (url: string, t: string) => server.call({ method: 'GET', url, token: t });
const changeState = (t: string, applicationId: number, state: ApplicationStatus, extra: object = {}, headers = {}) =>
  post('/api/applications/state/update', { applicationId, state, ...extra }, t, headers);
const setCheck = (t: string, applicationId: number, check: string, status: boolean, headers = {}) =>
  post('/api/applications/checks', { applicationId, check, status }, t, headers);

/**
 * An application of our lawyer for our client (or another client), in this status, with a draft
 * loan amount (as submitting gives it; `loanAmount: null` for none).
 */
async function application(
  status: ApplicationStatus,
  options: { clientId?: number; checks?: boolean; loanAmount?: number | null } = {},
): Promise<number> {
  const row = await buildApplication(server.db, {
    lawyerId: lawyer.id,
    clientId: options.clientId ?? customerId,
    status,
    loanAmount: options.loanAmount === undefined ? 30_000 : options.loanAmount,
    steps: { case: { caseRef: `REV-${randomUUID().slice(0, 6)}` } },
  });
  if (options.checks)
    await server.rows(
      sql`update applications set kyc_aml_check = true, credid_check = true, repayment_vehicle = true where id = ${row.id}`,
    );
  return row.id;
}

async function rowOf(id: number) {
  const [row] = await server.db.select().from(applications).where(eq(applications.id, id));
  return row!;
}

/** What a write leaves behind about one application: refusals must leave all of it as it was. */
async function traceOf(id: number) {
  const row = await rowOf(id);
  const [counts] = await server.rows<{ audit: number; emails: number; reviews: number; files: number }>(sql`
    select (select count(*)::int from audit_events where entity_type = 'application' and entity_id = ${String(id)}) as audit,
           (select count(*)::int from emails where application_id = ${id}) as emails,
           (select count(*)::int from document_reviews where application_id = ${id}) as reviews,
           (select count(*)::int from files where application_id = ${id} and deleted_at is null) as files`);
  return { row: { ...row, updatedAt: undefined }, ...counts };
}

const emailsOf = (id: number) =>
  server.rows<{ to_address: string; user_type: string; subject: string; text_body: string }>(
    sql`select to_address, user_type, subject, text_body from emails where application_id = ${id} order by id`,
  );

async function uploadAs(t: string, applicationId: number, type: string) {
  return server.call(uploadRequest({ applicationId, type, bytes: pdf, partFileName: `${type}.pdf`, token: t }));
}

describe('accepting and rejecting (staff, in the review state)', () => {
  it('accepts only with the three checks ticked, then tells the lawyer and the client, audited', async () => {
    const id = await application('submitted');
    const before = await traceOf(id);
    const early = await changeState(token.admin, id, 'providerAccepted');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ error: 'checksIncomplete' });
    expect(await traceOf(id)).toEqual(before);

    for (const check of ['kycAmlCheck', 'credidCheck', 'repaymentVehicle'] as const) {
      const res = await setCheck(token.admin, id, check, true);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()[check]).toBe(true);
      expect(res.json().abilities.accept).toBe(check === 'repaymentVehicle');
    }
    const res = await changeState(token.admin, id, 'providerAccepted');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('providerAccepted');
    expect(res.json().abilities).toMatchObject({ checks: ['independentAdvice'], accept: false, reject: false });

    const audit = await server.rows<{ actor_user_id: number; from_state: unknown; to_state: unknown }>(
      sql`select actor_user_id, from_state, to_state from audit_events where entity_id = ${String(id)} and action = 'statusChanged'`,
    );
    expect(audit).toEqual([
      { actor_user_id: expect.any(Number), from_state: { status: 'submitted' }, to_state: { status: 'providerAccepted' } },
    ]);
    const mail = await emailsOf(id);
    expect(mail.map((m) => m.user_type).sort()).toEqual(['customer', 'lawyer']);
    const lawyerMail = mail.find((m) => m.user_type === 'lawyer')!;
    const clientMail = mail.find((m) => m.user_type === 'customer')!;
    expect(lawyerMail.to_address).toBe(lawyer.email);
    expect(lawyerMail.text_body).toContain(`${server.config.publicUrl}/applications/${id}/application-provider-accepted-lawyer`);
    expect(clientMail.text_body).toContain(
      `${server.config.publicUrl}/applications/${id}/application-provider-accepted-customer`,
    );

    const again = await changeState(token.admin, id, 'providerAccepted');
    expect(again.statusCode).toBe(409);
    // Accepted by this member of staff a moment ago (decision 431).
    expect(again.json()).toEqual({
      error: 'conflict',
      details: { statusChange: { status: 'providerAccepted', at: expect.any(String), by: 'you' } },
    });
  });

  it('needs a loan amount to accept (409 loanAmountMissing), changing nothing', async () => {
    const id = await application('submitted', { checks: true, loanAmount: null });
    const before = await traceOf(id);
    const res = await changeState(token.admin, id, 'providerAccepted');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'loanAmountMissing' });
    expect(await traceOf(id)).toEqual(before);
  });

  it('lets root accept and reject too', async () => {
    const accepted = await application('submitted', { checks: true });
    expect((await changeState(token.root, accepted, 'providerAccepted')).statusCode).toBe(200);
    const rejected = await application('submitted');
    expect((await changeState(token.root, rejected, 'providerRejected')).statusCode).toBe(200);
  });

  it('rejects with a reason kept in the audit, telling the lawyer and the client', async () => {
    const id = await application('submitted');
    const res = await changeState(token.admin, id, 'providerRejected', { reason: 'Insufficient assets' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('providerRejected');
    const [audit] = await server.rows<{ to_state: unknown }>(
      sql`select to_state from audit_events where entity_id = ${String(id)} and action = 'statusChanged'`,
    );
    expect(audit!.to_state).toEqual({ status: 'providerRejected', reason: 'Insufficient assets' });
    const mail = await emailsOf(id);
    expect(mail.map((m) => m.user_type).sort()).toEqual(['customer', 'lawyer']);
    expect(mail[0]!.text_body).toContain('Insufficient assets');
    // Nothing leaves a rejected application.
    for (const to of ['providerAccepted', 'submitted', 'customerRejected'] as const) {
      const t = to === 'customerRejected' ? token.customer : to === 'submitted' ? token.lawyer : token.admin;
      expect((await changeState(t, id, to)).statusCode).toBe(409);
    }
  });

  it('refuses the review to every other role (403) and out of scope (404), changing nothing', async () => {
    const id = await application('submitted', { checks: true });
    const before = await traceOf(id);
    for (const to of ['providerAccepted', 'providerRejected'] as const) {
      for (const role of ['lawyer', 'firm', 'customer'] as const) {
        const res = await changeState(token[role], id, to);
        expect(res.statusCode, `${role} ${to}`).toBe(403);
      }
      for (const role of ['otherLawyer', 'otherCustomer'] as const) {
        const res = await changeState(token[role], id, to);
        expect(res.statusCode, `${role} ${to}`).toBe(404);
      }
      expect((await changeState(token.admin, 999_999, to)).statusCode).toBe(404);
    }
    expect(await traceOf(id)).toEqual(before);
  });

  it('accepts and rejects only from submitted', async () => {
    for (const status of ['created', 'providerAccepted', 'esignPrepared', 'customerRejected'] as const) {
      const id = await application(status, { checks: true });
      const before = await traceOf(id);
      for (const to of ['providerAccepted', 'providerRejected'] as const) {
        const res = await changeState(token.admin, id, to);
        expect(res.statusCode, `${status} → ${to}`).toBe(409);
        expect(res.json()).toEqual({ error: 'conflict' });
      }
      expect(await traceOf(id)).toEqual(before);
    }
  });

  it('answers a replayed accept with the first answer, changing once', async () => {
    const id = await application('submitted', { checks: true });
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await changeState(token.admin, id, 'providerAccepted', {}, headers);
    expect(first.statusCode, first.body).toBe(200);
    const replay = await changeState(token.admin, id, 'providerAccepted', {}, headers);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    const audit = await server.rows(sql`select 1 from audit_events where entity_id = ${String(id)} and action = 'statusChanged'`);
    expect(audit).toHaveLength(1);
    expect(await emailsOf(id)).toHaveLength(2);
  });
});

describe('the transitions other calls make, and the statuses the process never reaches', () => {
  it('refuses esignPrepared, customerNotified, esignComplete and customerAccepted with 409 ownCall', async () => {
    const cases: [keyof typeof token, ApplicationStatus, ApplicationStatus][] = [
      ['admin', 'providerAccepted', 'esignPrepared'],
      ['root', 'esignPrepared', 'customerNotified'],
      ['admin', 'customerNotified', 'esignComplete'],
      ['customer', 'customerNotified', 'customerAccepted'],
    ];
    for (const [role, status, to] of cases) {
      const id = await application(status);
      await server.rows(sql`update applications set independent_advice = true where id = ${id}`);
      const before = await traceOf(id);
      const res = await changeState(token[role], id, to);
      expect(res.statusCode, `${role} ${status} → ${to}`).toBe(409);
      expect(res.json()).toEqual({ error: 'ownCall' });
      expect(await traceOf(id)).toEqual(before);
    }
    // A role the table never lets make the change hears 403 first.
    const id = await application('providerAccepted');
    expect((await changeState(token.lawyer, id, 'esignPrepared')).statusCode).toBe(403);
    expect((await changeState(token.admin, await application('customerNotified'), 'customerAccepted')).statusCode).toBe(403);
  });

  it('moves nothing to the four statuses without a step', async () => {
    for (const [role, status, to] of [
      ['admin', 'providerAccepted', 'providerApproved'],
      ['admin', 'providerAccepted', 'providerDenied'],
      ['customer', 'providerAccepted', 'customerApproved'],
      ['admin', 'customerAccepted', 'approved'],
    ] as const) {
      const id = await application(status);
      const res = await changeState(token[role], id, to);
      expect(res.statusCode, `${status} → ${to}`).toBe(409);
      expect((await rowOf(id)).status).toBe(status);
    }
  });
});

describe("the client's 'i no longer wish to proceed'", () => {
  async function freshClient() {
    const client = await buildClient(server.db);
    return { client, token: await signInAs(server, client) };
  }

  it('sets customerRejected from the accepted, prepared and notified statuses, tells the lawyer and staff, ends the sessions', async () => {
    for (const status of ['providerAccepted', 'esignPrepared', 'customerNotified'] as const) {
      const { client, token: own } = await freshClient();
      const second = await signInAs(server, client);
      const id = await application(status, { clientId: client.id });
      const record = (await get(`/api/applications/${id}`, own)).json();
      expect(record.abilities.withdraw).toBe(true);
      const res = await changeState(own, id, 'customerRejected', { reason: 'Found other funding' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe('customerRejected');
      const [audit] = await server.rows<{ to_state: unknown }>(
        sql`select to_state from audit_events where entity_id = ${String(id)} and action = 'statusChanged'`,
      );
      expect(audit!.to_state).toEqual({ status: 'customerRejected', reason: 'Found other funding' });
      const mail = await emailsOf(id);
      expect(mail.map((m) => [m.user_type, m.to_address]).sort()).toEqual(
        [
          ['admin', server.config.brand.email],
          ['lawyer', lawyer.email],
        ].sort(),
      );
      // Every session of the client's account has ended (decision 273).
      expect((await get('/api/auth', own)).statusCode).toBe(401);
      expect((await get('/api/auth', second)).statusCode).toBe(401);
      // The staff and the lawyer are still signed in.
      expect((await get('/api/auth', token.lawyer)).statusCode).toBe(200);
    }
  });

  it('is the own client’s only, and only from those statuses; nothing changes otherwise', async () => {
    const { client, token: own } = await freshClient();
    const submitted = await application('submitted', { clientId: client.id });
    const before = await traceOf(submitted);
    const early = await changeState(own, submitted, 'customerRejected');
    expect(early.statusCode).toBe(409);
    expect(await traceOf(submitted)).toEqual(before);
    expect((await get('/api/auth', own)).statusCode).toBe(200);

    const accepted = await application('providerAccepted', { clientId: client.id });
    const acceptedBefore = await traceOf(accepted);
    for (const role of ['lawyer', 'firm', 'admin', 'root'] as const)
      expect((await changeState(token[role], accepted, 'customerRejected')).statusCode, role).toBe(403);
    expect((await changeState(token.otherCustomer, accepted, 'customerRejected')).statusCode).toBe(404);
    expect((await get(`/api/applications/${accepted}`, token.lawyer)).json().abilities.withdraw).toBe(false);
    expect(await traceOf(accepted)).toEqual(acceptedBefore);
  });
});

describe('abilities', () => {
  it('say what staff, the lawyer and the client may do in each state', async () => {
    const abilities = async (t: string, id: number) => (await get(`/api/applications/${id}`, t)).json().abilities;
    const submitted = await application('submitted');
    expect(await abilities(token.admin, submitted)).toMatchObject({
      checks: ['kycAmlCheck', 'credidCheck', 'repaymentVehicle'],
      accept: false,
      reject: true,
      updateLoanAmount: true,
      prepareEnvelope: false,
      readEmails: true,
      transitions: ['providerAccepted', 'providerRejected'],
    });
    expect((await abilities(token.admin, submitted)).changeDocuments).toContain('solicitorLetter');
    expect(await abilities(token.lawyer, submitted)).toMatchObject({
      checks: [],
      accept: false,
      reject: false,
      withdraw: false,
      updateLoanAmount: false,
      readEmails: false,
      changeDocuments: [],
    });

    const accepted = await application('providerAccepted');
    expect(await abilities(token.admin, accepted)).toMatchObject({
      checks: ['independentAdvice'],
      prepareEnvelope: false,
      updateLoanAmount: true,
    });
    await server.rows(sql`update applications set independent_advice = true where id = ${accepted}`);
    expect((await abilities(token.admin, accepted)).prepareEnvelope).toBe(true);
    expect(await abilities(token.customer, accepted)).toMatchObject({ withdraw: true, sign: false, prepareEnvelope: false });

    const prepared = await application('esignPrepared');
    expect(await abilities(token.admin, prepared)).toMatchObject({
      notifyClient: true,
      checks: [],
      updateLoanAmount: false,
      changeDocuments: [],
    });
    const notified = await application('customerNotified');
    expect(await abilities(token.customer, notified)).toMatchObject({ sign: true, withdraw: true });
    expect(await abilities(token.lawyer, notified)).toMatchObject({ sign: false, withdraw: false });
    expect(await abilities(token.admin, notified)).toMatchObject({ sign: false, notifyClient: false });
  });
});

describe('POST /applications/checks', () => {
  it('ticks the three review checks only in the review state, the certificate only in prepare', async () => {
    const submitted = await application('submitted');
    const accepted = await application('providerAccepted');
    const prepared = await application('esignPrepared');
    const cases: [number, string][] = [
      [submitted, 'independentAdvice'],
      [accepted, 'kycAmlCheck'],
      [prepared, 'independentAdvice'],
      [prepared, 'credidCheck'],
    ];
    for (const [id, check] of cases) {
      const before = await traceOf(id);
      const res = await setCheck(token.admin, id, check, true);
      expect(res.statusCode, `${check} on ${id}`).toBe(409);
      expect(res.json()).toEqual({ error: 'checkClosed' });
      expect(await traceOf(id)).toEqual(before);
    }
  });

  it('ticks the certificate only with a Certificate of Advice uploaded; deleting the last one unticks it', async () => {
    const id = await application('providerAccepted');
    const before = await traceOf(id);
    const missing = await setCheck(token.admin, id, 'independentAdvice', true);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'certificateMissing' });
    expect(await traceOf(id)).toEqual(before);

    const uploaded = await uploadAs(token.admin, id, 'solicitorLetter');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const ticked = await setCheck(token.admin, id, 'independentAdvice', true);
    expect(ticked.statusCode, ticked.body).toBe(200);
    expect(ticked.json()).toMatchObject({ independentAdvice: true, abilities: { prepareEnvelope: true } });
    const audit = await server.rows<{ from_state: unknown; to_state: unknown }>(
      sql`select from_state, to_state from audit_events where entity_id = ${String(id)} and action = 'checkChanged'`,
    );
    expect(audit).toEqual([{ from_state: { independentAdvice: false }, to_state: { independentAdvice: true } }]);
    // The same value again changes and records nothing.
    expect((await setCheck(token.admin, id, 'independentAdvice', true)).statusCode).toBe(200);
    expect(
      await server.rows(sql`select 1 from audit_events where entity_id = ${String(id)} and action = 'checkChanged'`),
    ).toHaveLength(1);

    const removed = await post('/api/applications/file/delete', { fileKey: uploaded.json().key }, token.admin);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await rowOf(id)).independentAdvice).toBe(false);
    // Unticking needs no certificate.
    expect((await setCheck(token.admin, id, 'independentAdvice', false)).statusCode).toBe(200);
  });

  it('is for staff only (403), 404 for an application that does not exist', async () => {
    const id = await application('submitted');
    const before = await traceOf(id);
    for (const role of ['lawyer', 'firm', 'customer', 'otherLawyer'] as const)
      expect((await setCheck(token[role], id, 'kycAmlCheck', true)).statusCode, role).toBe(403);
    expect((await setCheck(token.admin, 999_999, 'kycAmlCheck', true)).statusCode).toBe(404);
    expect((await setCheck(token.root, id, 'kycAmlCheck', true)).statusCode).toBe(200);
    expect((await traceOf(id)).audit).toBe(before.audit! + 1);
    const bad = await post('/api/applications/checks', { applicationId: id, check: 'other', status: true }, token.admin);
    expect(bad.statusCode).toBe(400);
  });

  it('answers a replay with the first answer and records one change', async () => {
    const id = await application('submitted');
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await setCheck(token.admin, id, 'credidCheck', true, headers);
    expect(first.statusCode).toBe(200);
    // Someone unticks it meanwhile; the replay still answers what the first request answered.
    await server.rows(sql`update applications set credid_check = false where id = ${id}`);
    const replay = await setCheck(token.admin, id, 'credidCheck', true, headers);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect((await rowOf(id)).credidCheck).toBe(false);
    const reused = await setCheck(token.admin, id, 'credidCheck', false, headers);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe('idempotencyKeyReused');
  });
});

describe('staff documents and the two staff-only types', () => {
  it('lets staff upload and delete only in the review and prepare states', async () => {
    for (const [status, expected] of [
      ['submitted', 201],
      ['providerAccepted', 201],
      ['incomplete', 409],
      ['esignPrepared', 409],
      ['customerNotified', 409],
      ['providerRejected', 409],
    ] as const) {
      const id = await application(status);
      const res = await uploadAs(token.admin, id, 'formE');
      expect(res.statusCode, `${status}: ${res.body}`).toBe(expected);
    }
    const id = await application('providerAccepted');
    const up = await uploadAs(token.root, id, 'secci');
    expect(up.statusCode).toBe(201);
    await server.rows(sql`update applications set status = 'esignPrepared' where id = ${id}`);
    const late = await post('/api/applications/file/delete', { fileKey: up.json().key }, token.admin);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: 'notEditable' });
  });

  it('hides the Certificate of Advice and the Letter of Instruction from the lawyer, the firm and the client everywhere', async () => {
    const id = await application('submitted');
    const certificate = (await uploadAs(token.admin, id, 'solicitorLetter')).json();
    const letter = (await uploadAs(token.admin, id, 'instructionsToSolicitorsLetter')).json();
    const formE = (await uploadAs(token.admin, id, 'formE')).json();
    const hidden = ['solicitorLetter', 'instructionsToSolicitorsLetter'];

    const staffRecord = (await get(`/api/applications/${id}`, token.admin)).json();
    expect(staffRecord.files.map((f: { type: string }) => f.type).sort()).toEqual([...hidden, 'formE'].sort());
    const staffLink = await get(`/api/applications/${id}/docs/solicitorLetter/download`, token.admin);
    expect(staffLink.statusCode).toBe(200);
    expect((await fetchLink(server, staffLink.json().url)).statusCode).toBe(200);

    for (const role of ['lawyer', 'firm', 'customer'] as const) {
      const record = (await get(`/api/applications/${id}`, token[role])).json();
      expect(
        record.files.map((f: { id: number }) => f.id),
        role,
      ).toEqual([formE.id]);
      const docs = (await get(`/api/applications/${id}/docs`, token[role])).json();
      expect(
        docs.documents.map((d: { type: string }) => d.type),
        role,
      ).not.toContain('solicitorLetter');
      expect(
        docs.documents.map((d: { type: string }) => d.type),
        role,
      ).not.toContain('instructionsToSolicitorsLetter');
      for (const [type, file] of [
        ['solicitorLetter', certificate],
        ['instructionsToSolicitorsLetter', letter],
      ] as const) {
        expect((await get(`/api/applications/${id}/docs/${type}/download`, token[role])).statusCode, role).toBe(404);
        expect((await get(`/api/applications/${id}/docs/${type}/download?fileId=${file.id}`, token[role])).statusCode).toBe(404);
        // Deleting names a key the caller cannot see: as if absent.
        const del = await post('/api/applications/file/delete', { fileKey: file.key }, token[role]);
        expect(del.statusCode, `${role} delete ${type}`).toBe(404);
      }
      expect((await get(`/api/applications/${id}/docs/formE/download`, token[role])).statusCode, role).toBe(200);
    }
    // Uploading a hidden type is refused outright (403), even where Form E would be allowed.
    const editable = await application('created');
    for (const role of ['lawyer', 'customer'] as const) {
      for (const type of hidden) expect((await uploadAs(token[role], editable, type)).statusCode, `${role} ${type}`).toBe(403);
      expect((await uploadAs(token[role], editable, 'formE')).statusCode).toBe(201);
    }
    const stillThere = await server.rows(
      sql`select 1 from files where application_id = ${id} and deleted_at is null and type in ('solicitorLetter', 'instructionsToSolicitorsLetter')`,
    );
    expect(stillThere).toHaveLength(2);
  });
});

describe('POST /applications/docs/state', () => {
  it('stores the state staff set, lists it, audits it', async () => {
    const id = await application('submitted');
    await uploadAs(token.admin, id, 'formE');
    const res = await post('/api/applications/docs/state', { applicationId: id, type: 'formE', state: 'accepted' }, token.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ type: 'formE', state: 'accepted', files: [expect.objectContaining({ type: 'formE' })] });
    const docs = (await get(`/api/applications/${id}/docs`, token.customer)).json().documents;
    expect(docs.find((d: { type: string }) => d.type === 'formE').state).toBe('accepted');
    expect(docs.find((d: { type: string }) => d.type === 'secci').state).toBe('pending');
    const again = await post('/api/applications/docs/state', { applicationId: id, type: 'formE', state: 'rejected' }, token.root);
    expect(again.json().state).toBe('rejected');
    const audit = await server.rows<{ to_state: unknown }>(
      sql`select to_state from audit_events where entity_id = ${String(id)} and action = 'documentStateChanged' order by id`,
    );
    expect(audit.map((a) => a.to_state)).toEqual([
      { type: 'formE', state: 'accepted' },
      { type: 'formE', state: 'rejected' },
    ]);
  });

  it('is refused to other roles, outside the review and prepare states, and for unknown applications', async () => {
    const id = await application('submitted');
    const before = await traceOf(id);
    const body = { applicationId: id, type: 'secci', state: 'accepted' };
    for (const role of ['lawyer', 'firm', 'customer'] as const)
      expect((await post('/api/applications/docs/state', body, token[role])).statusCode, role).toBe(403);
    expect((await post('/api/applications/docs/state', { ...body, applicationId: 999_999 }, token.admin)).statusCode).toBe(404);
    expect((await post('/api/applications/docs/state', { ...body, state: 'lost' }, token.admin)).statusCode).toBe(400);
    expect(await traceOf(id)).toEqual(before);
    const prepared = await application('esignPrepared');
    const late = await post('/api/applications/docs/state', { ...body, applicationId: prepared }, token.admin);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: 'notEditable' });
  });
});

describe('the draft loan amount (POST /loans/update without a loanId)', () => {
  const update = (t: string, body: object) => post('/api/loans/update', body, t);

  it('sets the application’s amount in the review and prepare states, audited', async () => {
    for (const status of ['submitted', 'providerAccepted'] as const) {
      const id = await application(status, { loanAmount: 10_000 });
      const res = await update(token.admin, { applicationId: id, amount: 12_500.5 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ applicationId: id, loanId: null, amount: 12_500.5, pendingAmount: null });
      expect((await rowOf(id)).loanAmountPence).toBe(1_250_050);
      expect((await get(`/api/applications/${id}`, token.lawyer)).json().loanAmount).toBe(12_500.5);
      const [audit] = await server.rows<{ from_state: unknown; to_state: unknown }>(
        sql`select from_state, to_state from audit_events where entity_id = ${String(id)} and action = 'loanAmountChanged'`,
      );
      expect(audit).toEqual({ from_state: { loanAmountPence: 1_000_000 }, to_state: { loanAmountPence: 1_250_050 } });
    }
    const id = await application('submitted');
    expect((await update(token.root, { loanId: null, applicationId: id, amount: 900 })).statusCode).toBe(200);
  });

  it('refuses bad amounts, other roles, other states and unknown applications, changing nothing', async () => {
    const id = await application('submitted', { loanAmount: 10_000 });
    const before = await traceOf(id);
    const fields = async (body: object) => (await update(token.admin, body)).json();
    expect(await fields({ applicationId: id, amount: 0 })).toEqual({
      error: 'validation',
      fields: { amount: 'greaterThanZero' },
    });
    expect(await fields({ applicationId: id, amount: -5 })).toEqual({ error: 'validation', fields: { amount: 'positive' } });
    expect(await fields({ applicationId: id, amount: 1.001 })).toEqual({ error: 'validation', fields: { amount: 'pence' } });
    expect(await fields({ amount: 100 })).toEqual({ error: 'validation', fields: { applicationId: 'required' } });
    for (const role of ['lawyer', 'firm', 'customer'] as const)
      expect((await update(token[role], { applicationId: id, amount: 100 })).statusCode, role).toBe(403);
    expect((await update(token.admin, { applicationId: 999_999, amount: 100 })).statusCode).toBe(404);
    expect(await traceOf(id)).toEqual(before);
    for (const status of ['created', 'esignPrepared', 'customerAccepted', 'providerRejected'] as const) {
      const other = await application(status, { loanAmount: 10_000 });
      const res = await update(token.admin, { applicationId: other, amount: 100 });
      expect(res.statusCode, status).toBe(409);
      expect(res.json()).toEqual({ error: 'notEditable' });
      expect((await rowOf(other)).loanAmountPence).toBe(1_000_000);
    }
  });
});
