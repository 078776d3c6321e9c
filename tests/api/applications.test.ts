import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { applications, applicationSteps, auditEvents, clients, files, lawyers, users } from '../../src/server/db/schema';
import { journeySteps } from '../../src/shared/journey/steps';
import type { ApplicationStatus } from '../../src/shared/rules/statuses';
import { startTestServer, type TestServer } from './harness';
import {
  buildApplication,
  buildClient,
  buildFirm,
  buildFirmAdmin,
  buildLawyer,
  buildLoan,
  buildSolicitor,
  buildUser,
  signInAs,
  type BuiltUser,
} from './factories';
import { api, badSteps, freshEmail, joinAsClient, personal, secondFirm, snapshot, validSteps } from './applications-fixtures';
import { smallPdf, uploadRequest } from './files-helpers';

let server: TestServer;
let a: ReturnType<typeof api>;
const token = {} as Record<'root' | 'admin' | 'firm' | 'lawyer' | 'customer', string>;
let other: Awaited<ReturnType<typeof secondFirm>>;
/** An application of the second firm's lawyer. */
let otherApplicationId: number;
let demoLawyerId: number;
/** Every role's account, built for this file: the lawyer's firm and clients read like the demo's. */
let accounts: Record<'root' | 'admin' | 'firm' | 'lawyer' | 'customer', BuiltUser>;

beforeAll(async () => {
  server = await startTestServer();
  a = api(server);
  const { db } = server;
  const firm = await buildFirm(db, { name: 'Harbour & Vale Solicitors LLP' });
  const lawyer = await buildLawyer(db, { firmId: firm.id, firstName: 'Laura', surname: 'Bennett' });
  const chris = await buildClient(db, { firstName: 'Chris', surname: 'Walker' });
  accounts = {
    root: await buildUser(db, { role: 'root' }),
    admin: await buildUser(db, { role: 'admin' }),
    firm: await buildFirmAdmin(db, { firmId: firm.id }),
    lawyer,
    customer: chris,
  };
  for (const role of ['root', 'admin', 'firm', 'lawyer', 'customer'] as const)
    token[role] = await signInAs(server, accounts[role]);
  // The lawyer's clients, one per status the tests ask about, each with the whole journey.
  const clientsOfTheLawyer: [string, string, string, ApplicationStatus, string, number | null][] = [
    ['Priya', 'Shah', 'priya.shah@demo.test', 'incomplete', 'HV-2026-0101', null],
    ['Daniel', 'Okafor', 'daniel.okafor@demo.test', 'submitted', 'HV-2026-0103', null],
    ['Emma', 'Clarke', 'emma.clarke@demo.test', 'providerAccepted', 'HV-2026-0104', 57_500],
  ];
  for (const [firstName, surname, email, status, caseRef, loanAmount] of clientsOfTheLawyer) {
    const client = await buildClient(db, { firstName, surname, email });
    const steps = {
      personal: personal(email, { firstName, lastName: surname }),
      ...validSteps,
      case: { ...validSteps.case, caseRef },
    };
    await buildApplication(db, { lawyerId: lawyer.id, clientId: client.id, status, steps, loanAmount });
  }
  const signed = await buildApplication(db, {
    lawyerId: lawyer.id,
    clientId: chris.id,
    status: 'customerAccepted',
    steps: {
      personal: personal(chris.email, { firstName: 'Chris', lastName: 'Walker' }),
      ...validSteps,
      case: { ...validSteps.case, caseRef: 'HV-2026-0100' },
    },
    loanAmount: 50_000,
  });
  await buildLoan(db, { applicationId: signed.id, creditOffered: 50_000 });
  await buildSolicitor(db);
  other = await secondFirm(server);
  const created = await a.create(other.lawyerToken, {
    journeyData: { personal: personal(freshEmail(), { firstName: 'Quentin', lastName: 'Otherfirm' }) },
  });
  expect(created.statusCode, created.body).toBe(201);
  otherApplicationId = created.json().id;
  demoLawyerId = (await a.get('/api/auth', token.lawyer)).json().lawyerId;
});
afterAll(async () => {
  await server.close();
});

async function demoApplication(first: string): Promise<{ id: number; status: string }> {
  const [row] = await server.rows<{ id: number; status: string }>(
    sql`select a.id, a.status from applications a join clients c on c.id = a.client_id where c.first_name = ${first}`,
  );
  return row!;
}

/** A fresh application of the demo lawyer; its client's email. */
async function newApplication(overrides: Record<string, unknown> = {}) {
  const email = freshEmail();
  const res = await a.create(token.lawyer, { journeyData: { personal: personal(email, overrides) } });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as number, email, body: res.json() };
}

describe('GET /applications (scoped list)', () => {
  it('shows each role only what it may see', async () => {
    const ids = async (t: string) => ((await a.list(t, '?pageSize=100')).json().items as { id: number }[]).map((i) => i.id);
    const lawyer = await ids(token.lawyer);
    const firm = await ids(token.firm);
    const admin = await ids(token.admin);
    const root = await ids(token.root);
    const customer = await ids(token.customer);
    expect(lawyer).not.toContain(otherApplicationId);
    expect(firm).not.toContain(otherApplicationId);
    expect(firm).toEqual(expect.arrayContaining(lawyer));
    expect(admin).toContain(otherApplicationId);
    expect(root).toEqual(admin);
    expect(admin).toEqual(expect.arrayContaining(lawyer));
    expect(customer).toEqual([(await demoApplication('Chris')).id]);
    expect(await ids(other.lawyerToken)).toEqual([otherApplicationId]);
    expect(await ids(other.firmToken)).toEqual([otherApplicationId]);
  });

  it('answers the contract’s items, newest first, with the total', async () => {
    const res = await a.list(token.lawyer, '?pageSize=100');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.page).toBe(1);
    expect(body.total).toBe(body.items.length);
    const priya = body.items.find((i: { name: string }) => i.name === 'Priya');
    expect(priya).toEqual({
      id: expect.any(Number),
      lawyerId: demoLawyerId,
      name: 'Priya',
      surname: 'Shah',
      caseRef: expect.stringMatching(/^HV-/),
      startDate: expect.any(String),
      status: 'incomplete',
    });
    const dates = body.items.map((i: { startDate: string }) => Date.parse(i.startDate));
    expect([...dates].sort((x, y) => y - x)).toEqual(dates);
  });

  it('says for each item what the caller may do with it when asked, as the record does', async () => {
    type Item = { id: number; name: string; abilities?: { editJourney: boolean; submit: boolean; transitions: string[] } };
    const items = async (t: string) => (await a.list(t, '?pageSize=100&abilities=true')).json().items as Item[];
    const lawyer = await items(token.lawyer);
    const priya = lawyer.find((item) => item.name === 'Priya')!;
    const daniel = lawyer.find((item) => item.name === 'Daniel')!;
    expect(priya.abilities).toEqual({
      editJourney: true,
      submit: true,
      transitions: ['submitted'],
      changeDocuments: ['formE'],
      checks: [],
      accept: false,
      reject: false,
      withdraw: false,
      updateLoanAmount: false,
      prepareEnvelope: false,
      notifyClient: false,
      sign: false,
      readEmails: false,
    });
    expect(daniel.abilities).toMatchObject({ editJourney: false, submit: false, transitions: [] });
    // Each item's abilities are the record's own.
    for (const [t, item] of [
      [token.lawyer, priya],
      [token.lawyer, daniel],
      [token.admin, (await items(token.admin)).find((row) => row.id === daniel.id)!],
      [token.firm, (await items(token.firm)).find((row) => row.id === priya.id)!],
    ] as const) {
      // The record also says whether the client may be invited again (decision 344) and whether signed
      // documents can be downloaded (decision 449); the list does not.
      const {
        inviteClient: _invite,
        downloadSignedDocuments: _signed,
        ...recordAbilities
      } = (await a.get(`/api/applications/${item.id}`, t)).json().abilities;
      expect(item.abilities).toEqual(recordAbilities);
    }
    // Not asked for: the items are as before.
    expect((await a.list(token.lawyer, '?pageSize=1')).json().items[0]).not.toHaveProperty('abilities');
    expect((await a.list(token.lawyer, '?abilities=maybe')).statusCode).toBe(400);
  });

  it('pages with a default of 10', async () => {
    const all = (await a.list(token.admin, '?pageSize=100')).json();
    const first = (await a.list(token.admin)).json();
    expect(first.pageSize).toBe(10);
    expect(first.items).toEqual(all.items.slice(0, 10));
    const page = (await a.list(token.admin, '?page=2&pageSize=3')).json();
    expect(page).toMatchObject({ page: 2, pageSize: 3, total: all.total });
    expect(page.items).toEqual(all.items.slice(3, 6));
    expect((await a.list(token.admin, '?page=1000')).json()).toMatchObject({ items: [], total: all.total });
  });

  it('filters by status and narrows by lawyer, client and firm only within the scope', async () => {
    const submitted = (await a.list(token.lawyer, '?status=submitted')).json();
    expect(submitted.items.map((i: { name: string }) => i.name)).toEqual(['Daniel']);
    expect((await a.list(token.admin, `?lawyerId=${other.lawyerId}`)).json().items.map((i: { id: number }) => i.id)).toEqual([
      otherApplicationId,
    ]);
    expect((await a.list(token.admin, `?firmId=${other.firmId}`)).json().total).toBe(1);
    // Another lawyer's or firm's filter cannot widen a scope.
    expect((await a.list(token.lawyer, `?lawyerId=${other.lawyerId}`)).json().total).toBe(0);
    expect((await a.list(token.firm, `?firmId=${other.firmId}`)).json().total).toBe(0);
    const chris = await demoApplication('Chris');
    const [client] = await server.rows<{ client_id: number }>(sql`select client_id from applications where id = ${chris.id}`);
    expect(
      (await a.list(token.lawyer, `?customerId=${client!.client_id}`)).json().items.map((i: { id: number }) => i.id),
    ).toEqual([chris.id]);
    expect((await a.list(token.customer, `?customerId=${client!.client_id + 1}`)).json().total).toBe(0);
  });

  it('searches first name, last name and case reference, case-insensitively, as plain text', async () => {
    const names = async (q: string) =>
      ((await a.list(token.lawyer, `?search=${encodeURIComponent(q)}`)).json().items as { name: string }[]).map((i) => i.name);
    expect(await names('priya')).toEqual(['Priya']);
    expect(await names('SHAH')).toEqual(['Priya']);
    expect(await names('priya shah')).toEqual(['Priya']);
    expect(await names('hv-2026-0103')).toEqual(['Daniel']);
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
    expect(await names('quentin')).toEqual([]);
    expect((await a.list(token.admin, '?search=quentin')).json().total).toBe(1);
  });
});

describe('GET /applications/{id}', () => {
  it('answers the whole application to its lawyer', async () => {
    const emma = await demoApplication('Emma');
    const res = await a.get(`/api/applications/${emma.id}`, token.lawyer);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: emma.id,
      name: 'Emma',
      surname: 'Clarke',
      clientEmail: 'emma.clarke@demo.test',
      status: 'providerAccepted',
      loanAmount: expect.any(Number),
      files: [],
      loanId: null,
      lawyer: {
        id: demoLawyerId,
        firstName: 'Laura',
        surname: 'Bennett',
        login: accounts.lawyer.email,
        firm: { id: expect.any(Number), firmName: 'Harbour & Vale Solicitors LLP' },
      },
    });
    expect(body.loanAmount).toBe(5_750_000 / 100);
    expect(Object.keys(body.journey).sort()).toEqual([...journeySteps].sort());
    expect(body.journeyVersions).toEqual(Object.fromEntries(journeySteps.map((s) => [s, 1])));
    expect(body.journey.case.caseRef).toMatch(/^HV-/);
  });

  it('shows the demo client their own application with its loan', async () => {
    const chris = await demoApplication('Chris');
    const res = await a.get(`/api/applications/${chris.id}`, token.customer);
    expect(res.statusCode).toBe(200);
    expect(res.json().loanId).toEqual(expect.any(Number));
  });

  it('lists the files the caller may see, without deleted ones', async () => {
    const { id } = await newApplication();
    const file = (type: string, n: number, deleted = false) => ({
      applicationId: id,
      key: `test/${id}/${type}-${n}`,
      name: `${type} ${n}`,
      fileName: `${type}-${n}.pdf`,
      type,
      contentType: 'application/pdf',
      size: 1000 + n,
      deletedAt: deleted ? new Date() : null,
    });
    await server.db.insert(files).values([file('formE', 1), file('formE', 2, true), file('solicitorLetter', 3)]);
    const lawyerView = (await a.get(`/api/applications/${id}`, token.lawyer)).json().files;
    expect(lawyerView).toEqual([
      {
        id: expect.any(Number),
        name: 'formE 1',
        url: expect.stringMatching(new RegExp(`^/api/applications/${id}/docs/formE/download\\?fileId=\\d+$`)),
        key: `test/${id}/formE-1`,
        fileName: 'formE-1.pdf',
        type: 'formE',
        size: 1001,
        createdAt: expect.any(String),
      },
    ]);
    const adminView = (await a.get(`/api/applications/${id}`, token.admin)).json().files;
    expect(adminView.map((f: { type: string }) => f.type)).toEqual(['formE', 'solicitorLetter']);
  });

  it('answers 404 for missing and out-of-scope applications alike', async () => {
    const priya = await demoApplication('Priya');
    for (const [t, id] of [
      [token.lawyer, otherApplicationId],
      [token.firm, otherApplicationId],
      [other.lawyerToken, priya.id],
      [other.firmToken, priya.id],
      [token.customer, priya.id],
      [token.admin, 999999],
    ] as const) {
      const res = await a.get(`/api/applications/${id}`, t);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'notFound' });
    }
    expect((await a.get(`/api/applications/${otherApplicationId}`, token.admin)).statusCode).toBe(200);
    expect((await a.get(`/api/applications/${otherApplicationId}`, other.firmToken)).statusCode).toBe(200);
  });
});

describe('POST /applications/create', () => {
  it('creates the client, the application and its first step, and invites the client', async () => {
    const before = await snapshot(server);
    const email = freshEmail();
    const res = await a.create(token.lawyer, { journeyData: { personal: personal(` ${email.toUpperCase()} `) } });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'incomplete',
      name: 'Nina',
      surname: 'Fairweather',
      clientEmail: email,
      lawyerId: demoLawyerId,
      journeyVersions: { personal: 1 },
      loanAmount: null,
    });
    expect(body.journey.personal).toMatchObject({ firstName: 'Nina', status: 'retired' });
    expect(Date.now() - Date.parse(body.startDate)).toBeLessThan(60_000);
    const after = await snapshot(server);
    expect(after).toMatchObject({
      applications: before.applications + 1,
      users: before.users + 1,
      clients: before.clients + 1,
      emails: before.emails + 1,
      steps: before.steps + 1,
    });

    const [account] = await server.db.select().from(users).where(eq(users.email, email));
    expect(account).toMatchObject({
      role: 'customer',
      status: 'invited',
      firstName: 'Nina',
      surname: 'Fairweather',
      passwordHash: null,
    });
    const [client] = await server.db.select().from(clients).where(eq(clients.userId, account!.id));
    expect(client).toMatchObject({
      firstName: 'Nina',
      lastName: 'Fairweather',
      contactNumber: '07700 900555',
      birthDate: '1985-07-02',
    });
    const mailbox = (await server.call({ method: 'GET', url: '/api/dev/mailbox' })).json().emails as {
      to: string;
      links: string[];
      applicationId: number;
      userType: string;
    }[];
    const invitation = mailbox.find((e) => e.to === email);
    expect(invitation).toMatchObject({ applicationId: body.id, userType: 'customer' });
    expect(invitation!.links.some((l) => /\/sign-up-customer\/[0-9a-f-]{36}$/.test(l))).toBe(true);
    const actions = await server.rows<{ action: string }>(
      sql`select action from audit_events where entity_type = 'application' and entity_id = ${String(body.id)} order by id`,
    );
    expect(actions.map((r) => r.action)).toEqual(['created', 'stepSaved']);
  });

  it('answers 400 login when the email belongs to an account, storing nothing', async () => {
    // A client of this lawyer gets the new application on their account instead; a client of another
    // lawyer is refused like this (decision 344: tests/api/client-invitation.test.ts).
    const quentin = (await a.get(`/api/applications/${otherApplicationId}`, other.lawyerToken)).json().clientEmail as string;
    for (const email of [accounts.lawyer.email, quentin.toUpperCase()]) {
      const before = await snapshot(server);
      const res = await a.create(token.lawyer, { journeyData: { personal: personal(email) } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'validation', fields: { login: 'login' } });
      expect(await snapshot(server)).toEqual(before);
    }
  });

  it('answers 400 with the step’s codes for bad answers, storing nothing', async () => {
    const before = await snapshot(server);
    for (const [body, fields] of [
      [{}, { journeyData: 'required' }],
      [{ journeyData: { personal: {} } }, { firstName: 'required', email: 'required', addressHistory: 'required' }],
      [{ journeyData: { personal: personal('not-an-email') } }, { email: 'email' }],
      [{ journeyData: { personal: personal(freshEmail(), { birthDayDay: 31, birthMonth: 2 }) } }, { birthDayDay: 'date' }],
      [
        {
          journeyData: {
            personal: personal(freshEmail(), {
              addressHistory: [{ type: 'postcode', address: '1 High St', postcode: 'AB1 2CD', date: '2025-01-01' }],
            }),
          },
        },
        { addressHistory: 'addressTooRecent' },
      ],
    ] as const) {
      const res = await a.create(token.lawyer, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation', fields });
    }
    expect(await snapshot(server)).toEqual(before);
  });

  it('refuses a body nested deeper than any request of the contract with 400, not a 500', async () => {
    const before = await snapshot(server);
    const deep = `{"journeyData":{"personal":{"addressHistory":${'['.repeat(5000)}${']'.repeat(5000)}}}}`;
    const res = await server.call({
      method: 'POST',
      url: '/api/applications/create',
      token: token.lawyer,
      payload: deep,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('validation');
    expect(await snapshot(server)).toEqual(before);
  });

  it('uses the lawyer’s own id; root names the lawyer', async () => {
    const mine = await a.create(token.lawyer, { lawyerId: demoLawyerId, journeyData: { personal: personal(freshEmail()) } });
    expect(mine.statusCode).toBe(201);
    const theirs = await a.create(token.lawyer, { lawyerId: other.lawyerId, journeyData: { personal: personal(freshEmail()) } });
    expect(theirs.statusCode).toBe(403);
    expect((await a.create(token.root, { journeyData: { personal: personal(freshEmail()) } })).json()).toEqual({
      error: 'validation',
      fields: { lawyerId: 'required' },
    });
    expect((await a.create(token.root, { lawyerId: 999999, journeyData: { personal: personal(freshEmail()) } })).json()).toEqual({
      error: 'validation',
      fields: { lawyerId: 'invalid' },
    });
    const byRoot = await a.create(token.root, { lawyerId: other.lawyerId, journeyData: { personal: personal(freshEmail()) } });
    expect(byRoot.statusCode).toBe(201);
    expect(byRoot.json().lawyerId).toBe(other.lawyerId);
  });

  // Two connections are needed to hold the lawyer's row while the create runs: PostgreSQL only.
  it.runIf(process.env.API_TEST_DB === 'postgres')(
    'refuses a lawyer deleted while the create waits for the lawyer’s row',
    async () => {
      const target = await secondFirm(server);
      let pending: ReturnType<typeof a.create> | undefined;
      await server.db.transaction(async (tx) => {
        // What DELETE /lawyers/{id} does: lock the row, then mark it deleted.
        await tx.select({ id: lawyers.id }).from(lawyers).where(eq(lawyers.id, target.lawyerId)).for('update');
        pending = a.create(token.root, { lawyerId: target.lawyerId, journeyData: { personal: personal(freshEmail()) } });
        for (let i = 0; i < 100; i++) {
          const [waiting] = await server.rows<{ n: number }>(
            sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          );
          if (waiting!.n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await tx
          .update(lawyers)
          .set({ deletedAt: sql`now()` })
          .where(eq(lawyers.id, target.lawyerId));
      });
      const res = await pending!;
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ error: 'validation', fields: { lawyerId: 'invalid' } });
      expect(await server.rows(sql`select id from applications where lawyer_id = ${target.lawyerId}`)).toEqual([]);
    },
  );
});

describe('POST /applications/update/{step}', () => {
  it.each(Object.entries(badSteps))('refuses bad %s answers with their codes and stores nothing', async (step, bad) => {
    const { id, email } = await newApplication();
    // The client confirmation is the client's own step: only the client saves it.
    const saver = step === 'client' ? await joinAsClient(server, email) : token.lawyer;
    const before = await snapshot(server);
    const base = step === 'personal' ? 1 : 0;
    const res = await a.save(saver, step, id, base, bad.data);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation', fields: bad.fields });
    expect(await snapshot(server)).toEqual(before);
  });

  it('saves each step, counts versions and answers 409 with the server’s copy', async () => {
    const { id, email } = await newApplication();
    // Every step of the lawyer's form; the client confirmation is the client's to save.
    for (const [step, data] of Object.entries(validSteps).filter(([step]) => step !== 'client')) {
      const res = await a.save(token.lawyer, step, id, 0, data);
      expect(res.statusCode, `${step}: ${res.body}`).toBe(200);
      expect(res.json()).toEqual({ data: { [step]: data }, version: 1 });
    }
    const stale = await a.save(token.lawyer, 'financial', id, 0, { ...validSteps.financial, monthlyIncome: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ error: 'conflict', current: { data: { financial: validSteps.financial }, version: 1 } });
    const ahead = await a.save(token.lawyer, 'financial', id, 7, validSteps.financial);
    expect(ahead.statusCode).toBe(409);
    const next = await a.save(token.lawyer, 'financial', id, 1, { ...validSteps.financial, monthlyIncome: 1 });
    expect(next.json()).toEqual({ data: { financial: { ...validSteps.financial, monthlyIncome: 1 } }, version: 2 });
    const personalSave = await a.save(token.lawyer, 'personal', id, 1, personal(email, { firstName: 'Nadia' }));
    expect(personalSave.json().version).toBe(2);

    const app = (await a.get(`/api/applications/${id}`, token.lawyer)).json();
    expect(app.journeyVersions).toEqual({ personal: 2, case: 1, financial: 2, asset: 1, independent: 1 });
    expect(app.journey.financial.monthlyIncome).toBe(1);
    expect(app.name).toBe('Nadia');
    expect(app.status).toBe('incomplete');
    // The list shows the new name and finds the case reference.
    const found = (await a.list(token.lawyer, '?search=nf-2026-77')).json().items.find((i: { id: number }) => i.id === id);
    expect(found).toMatchObject({ name: 'Nadia', caseRef: 'NF-2026-77' });
    const audit = await server.db
      .select()
      .from(auditEvents)
      .where(
        sql`${auditEvents.entityType} = 'application' and ${auditEvents.entityId} = ${String(id)} and ${auditEvents.action} = 'stepSaved'`,
      );
    expect(audit).toHaveLength(7); // five first saves (the client confirmation is not the lawyer's), two second saves
    expect(audit.at(-1)).toMatchObject({
      fromState: { step: 'personal', version: 1 },
      toState: { step: 'personal', version: 2 },
    });
  });

  it('takes Form E documents only from the application’s own live Form E files', async () => {
    const { id } = await newApplication();
    const other = await newApplication();
    const upload = async (applicationId: number) =>
      (await server.call(uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token: token.lawyer }))).json()
        .id as number;
    const own = await upload(id);
    const foreign = await upload(other.id);
    const withFormE = (documents: number[]) => ({
      submittedFormE: true,
      documents,
      assetValue: 1000,
      routeToRepayment: 'Settlement',
    });

    for (const documents of [[foreign], [own, 999999]]) {
      const before = await snapshot(server);
      const res = await a.save(token.lawyer, 'asset', id, 0, withFormE(documents));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ error: 'validation', fields: { documents: 'invalid' } });
      expect(await snapshot(server)).toEqual(before);
    }
    const saved = await a.save(token.lawyer, 'asset', id, 0, withFormE([own]));
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('takes the solicitor only from the live solicitors (an unknown or deleted one is 400)', async () => {
    const { id } = await newApplication();
    const created = await a.post(
      '/api/solicitors',
      {
        name: 'Gone & Co',
        address: { city: 'Leeds' },
        contactNumber: '0113 496 0000',
        email: freshEmail('solicitor'),
        fee: 250,
        deliveryMethod: 'email',
      },
      token.admin,
    );
    expect(created.statusCode, created.body).toBe(201);
    const goneId = created.json().id as number;
    expect((await server.call({ method: 'DELETE', url: `/api/solicitors/${goneId}`, token: token.admin })).statusCode).toBe(204);
    const advice = (solicitorId: number) => ({ solicitorId, consent: true, authorised: true });
    for (const solicitorId of [goneId, 999999]) {
      const before = await snapshot(server);
      const res = await a.save(token.lawyer, 'independent', id, 0, advice(solicitorId));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ error: 'validation', fields: { solicitorId: 'invalid' } });
      expect(await snapshot(server)).toEqual(before);
    }
    const live = (await a.get('/api/solicitors?page=1&pageSize=1', token.lawyer)).json().items[0].id as number;
    const saved = await a.save(token.lawyer, 'independent', id, 0, advice(live));
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('keeps the client’s email: it is their login', async () => {
    const { id } = await newApplication();
    const res = await a.save(token.lawyer, 'personal', id, 1, personal(freshEmail()));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'validation', fields: { email: 'emailLocked' } });
  });

  it('refuses a journey that does not hold exactly the step of the path', async () => {
    const { id } = await newApplication();
    for (const journeyData of [{ case: validSteps.case }, {}, { financial: validSteps.financial, case: validSteps.case }]) {
      const res = await a.post(
        '/api/applications/update/financial',
        { applicationId: id, baseVersion: 0, journeyData },
        token.lawyer,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'validation', fields: { journeyData: 'invalid' } });
    }
  });

  it('lets two saves from the same version race: one wins, the other gets the conflict', async () => {
    const { id } = await newApplication();
    const [x, y] = await Promise.all([
      a.save(token.lawyer, 'financial', id, 0, { ...validSteps.financial, monthlyIncome: 10 }),
      a.save(token.lawyer, 'financial', id, 0, { ...validSteps.financial, monthlyIncome: 20 }),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
    const [row] = await server.db
      .select()
      .from(applicationSteps)
      .where(sql`${applicationSteps.applicationId} = ${id} and ${applicationSteps.step} = 'financial'`);
    expect(row!.version).toBe(1);
  });

  it('answers 404 outside the scope and 409 notEditable once submitted', async () => {
    const priya = await demoApplication('Priya');
    const res = await a.save(other.lawyerToken, 'client', priya.id, 0, validSteps.client);
    expect(res.statusCode).toBe(404);
    expect((await a.save(token.customer, 'client', priya.id, 0, validSteps.client)).statusCode).toBe(404);
    const daniel = await demoApplication('Daniel');
    const locked = await a.save(token.lawyer, 'financial', daniel.id, 1, validSteps.financial);
    expect(locked.statusCode).toBe(409);
    expect(locked.json()).toEqual({ error: 'notEditable' });
  });
});

describe('the client’s own form', () => {
  it('lets the invited client join, save (incomplete → created) and submit', async () => {
    const { id, email } = await newApplication();
    const client = await joinAsClient(server, email);
    expect((await a.list(client)).json().items.map((i: { id: number }) => i.id)).toEqual([id]);
    expect((await a.get(`/api/applications/${(await demoApplication('Priya')).id}`, client)).statusCode).toBe(404);

    const agree = await a.save(client, 'client', id, 0, validSteps.client);
    expect(agree.statusCode, agree.body).toBe(200);
    expect((await a.get(`/api/applications/${id}`, client)).json().status).toBe('created');
    const statusAudit = await server.rows<{ from_state: unknown; to_state: unknown }>(
      sql`select from_state, to_state from audit_events where entity_id = ${String(id)} and action = 'statusChanged'`,
    );
    expect(statusAudit).toEqual([{ from_state: { status: 'incomplete' }, to_state: { status: 'created' } }]);

    // The client's wording: no consent or authority to tick.
    const advice = await a.save(client, 'independent', id, 0, { useOwnSolicitor: true });
    expect(advice.statusCode, advice.body).toBe(200);
    for (const step of ['case', 'financial', 'asset'] as const)
      expect((await a.save(client, step, id, 0, validSteps[step])).statusCode).toBe(200);
    const submitted = await a.submit(client, id);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().status).toBe('submitted');
  });

  it('asks the client for the client confirmation before submitting', async () => {
    const { id, email } = await newApplication();
    for (const step of ['case', 'financial', 'asset', 'independent'] as const)
      expect((await a.save(token.lawyer, step, id, 0, validSteps[step])).statusCode).toBe(200);
    const client = await joinAsClient(server, email);
    const res = await a.submit(client, id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'incompleteSteps', fields: { client: 'required' } });
  });
});

describe('POST /applications/state/update (submit)', () => {
  it('names the steps still incomplete and changes nothing', async () => {
    const { id } = await newApplication();
    await a.save(token.lawyer, 'financial', id, 0, validSteps.financial);
    const res = await a.submit(token.lawyer, id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'incompleteSteps',
      fields: { case: 'required', asset: 'required', independent: 'required' },
    });
    const [row] = await server.db.select({ status: applications.status }).from(applications).where(eq(applications.id, id));
    expect(row!.status).toBe('incomplete');
  });

  it('submits a complete application once, for its lawyer only', async () => {
    const { id } = await newApplication();
    for (const step of ['case', 'financial', 'asset', 'independent'] as const)
      await a.save(token.lawyer, step, id, 0, validSteps[step]);
    expect((await a.submit(token.admin, id)).statusCode).toBe(403);
    expect((await a.submit(token.firm, id)).statusCode).toBe(403);
    expect((await a.submit(other.lawyerToken, id)).statusCode).toBe(404);
    const res = await a.submit(token.lawyer, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'submitted' });
    const again = await a.submit(token.lawyer, id);
    expect(again.statusCode).toBe(409);
    // Submitted by this lawyer a moment ago (decision 431).
    expect(again.json()).toEqual({
      error: 'conflict',
      details: { statusChange: { status: 'submitted', at: expect.any(String), by: 'you' } },
    });
    const audit = await server.rows<{ from_state: unknown; to_state: unknown }>(
      sql`select from_state, to_state from audit_events where entity_id = ${String(id)} and action = 'statusChanged'`,
    );
    expect(audit).toEqual([{ from_state: { status: 'incomplete' }, to_state: { status: 'submitted' } }]);
  });

  it('gives the submitted application its draft loan amount: the case’s fee estimate, never over one staff set', async () => {
    const { id } = await newApplication();
    for (const step of ['case', 'financial', 'asset', 'independent'] as const)
      await a.save(token.lawyer, step, id, 0, step === 'case' ? { ...validSteps.case, feeEstimate: 40_000.5 } : validSteps[step]);
    expect((await a.submit(token.lawyer, id)).statusCode).toBe(200);
    const [row] = await server.db
      .select({ pence: applications.loanAmountPence })
      .from(applications)
      .where(eq(applications.id, id));
    expect(row!.pence).toBe(4_000_050);

    const set = await newApplication();
    for (const step of ['case', 'financial', 'asset', 'independent'] as const)
      await a.save(token.lawyer, step, set.id, 0, validSteps[step]);
    await server.db.update(applications).set({ loanAmountPence: 123_400 }).where(eq(applications.id, set.id));
    expect((await a.submit(token.lawyer, set.id)).statusCode).toBe(200);
    const [kept] = await server.db
      .select({ pence: applications.loanAmountPence })
      .from(applications)
      .where(eq(applications.id, set.id));
    expect(kept!.pence).toBe(123_400);
  });

  it('refuses Form E declared when every document it named has been deleted since', async () => {
    const { id } = await newApplication();
    const uploaded = await server.call(
      uploadRequest({ applicationId: id, type: 'formE', bytes: await smallPdf(), token: token.lawyer }),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const asset = { submittedFormE: true, documents: [uploaded.json().id], assetValue: 1000, routeToRepayment: 'Settlement' };
    for (const step of ['case', 'financial', 'independent'] as const)
      expect((await a.save(token.lawyer, step, id, 0, validSteps[step])).statusCode).toBe(200);
    expect((await a.save(token.lawyer, 'asset', id, 0, asset)).statusCode).toBe(200);
    const removed = await a.post('/api/applications/file/delete', { fileKey: uploaded.json().key }, token.lawyer);
    expect(removed.statusCode, removed.body).toBe(204);
    const res = await a.submit(token.lawyer, id);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: 'incompleteSteps', fields: { asset: 'required' } });
    const [row] = await server.db.select({ status: applications.status }).from(applications).where(eq(applications.id, id));
    expect(row!.status).toBe('incomplete');
  });

  it('refuses moves the status does not allow, and moves back to the start', async () => {
    const { id } = await newApplication();
    const back = await a.post('/api/applications/state/update', { applicationId: id, state: 'incomplete' }, token.lawyer);
    expect(back.statusCode).toBe(409);
    const accept = await a.post('/api/applications/state/update', { applicationId: id, state: 'providerAccepted' }, token.admin);
    expect(accept.statusCode).toBe(409);
    expect(accept.json()).toEqual({ error: 'conflict' });
    expect(
      (await a.post('/api/applications/state/update', { applicationId: 999999, state: 'submitted' }, token.lawyer)).statusCode,
    ).toBe(404);
  });
});
