import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { applications, clients, users } from '../../src/server/db/schema';
import type { ApplicationStatus } from '../../src/shared/rules/statuses';
import { startTestServer, type TestServer } from './harness';
import {
  buildApplication,
  buildClient,
  buildFirmAdmin,
  buildLawyer,
  buildLoan,
  buildUser,
  signInAs,
  type BuiltUser,
} from './factories';

let server: TestServer;
const tokens = {} as Record<'root' | 'admin' | 'firm' | 'lawyer' | 'customer', string>;
/** Every role's account, built for this file. */
let accounts: Record<'root' | 'admin' | 'firm' | 'lawyer' | 'customer', BuiltUser>;
/** The client Chris Walker and their signed application. */
let demo: { clientId: number; applicationId: number };
/** A second firm's lawyer (signed up) with one client of their own. */
let other: { lawyerToken: string; adminToken: string; clientId: number; applicationId: number; clientEmail: string };

const PASSWORD = 'New-pass-123';
const get = (url: string, token?: string) => server.call({ method: 'GET', url, token });
const post = (url: string, payload: unknown, token?: string) =>
  server.call({ method: 'POST', url, payload: payload as object, token });

let unique = 0;
const email = (name: string) => `${name}.${++unique}@clients.test`;

async function acceptInvitation(to: string, kind: 'admin' | 'lawyer'): Promise<string> {
  const mailbox = await get('/api/dev/mailbox');
  const link = (mailbox.json().emails as { to: string; links: string[] }[])
    .find((e) => e.to === to)
    ?.links.find((l) => l.includes(`/sign-up-${kind}/`));
  if (!link) throw new Error(`no /sign-up-${kind}/ link for ${to}`);
  const res = await post('/api/users/sign-up/complete', { login: to, password: PASSWORD, uuid: link.split('/').pop() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().userToken as string;
}

beforeAll(async () => {
  server = await startTestServer();
  const { db } = server;
  const ourLawyer = await buildLawyer(db);
  const customer = await buildClient(db, { firstName: 'Chris', surname: 'Walker', birthDate: '1984-03-12' });
  accounts = {
    root: await buildUser(db, { role: 'root' }),
    admin: await buildUser(db, { role: 'admin' }),
    firm: await buildFirmAdmin(db, { firmId: ourLawyer.firmId }),
    lawyer: ourLawyer,
    customer,
  };
  for (const role of Object.keys(accounts) as (keyof typeof accounts)[]) tokens[role] = await signInAs(server, accounts[role]);
  // The signed case (its loan still runs) and seven more of the same lawyer: two of them are over.
  const signed = await buildApplication(db, { lawyerId: ourLawyer.id, clientId: customer.id, status: 'customerAccepted' });
  await buildLoan(db, { applicationId: signed.id, status: 'open' });
  demo = { clientId: customer.id, applicationId: signed.id };
  const more: [string, string, string, ApplicationStatus][] = [
    ['Priya', 'Shah', 'priya.shah@demo.test', 'incomplete'],
    ['Daniel', 'Okafor', 'daniel.okafor@demo.test', 'submitted'],
    ['Emma', 'Clarke', 'emma.clarke@demo.test', 'providerAccepted'],
    ['Tom', 'Hughes', 'tom.hughes@demo.test', 'providerRejected'],
    ['Sarah', 'Mitchell', 'sarah.mitchell@demo.test', 'esignPrepared'],
    ['Olivia', 'Grant', 'olivia.grant@demo.test', 'created'],
    ['James', 'Patel', 'james.patel@demo.test', 'customerRejected'],
  ];
  for (const [firstName, surname, clientEmail, status] of more) {
    const client = await buildClient(db, { firstName, surname, email: clientEmail });
    await buildApplication(db, { lawyerId: ourLawyer.id, clientId: client.id, status });
  }

  const adminLogin = email('admin');
  const firm = await post(
    '/api/firms',
    { firmName: 'Elsewhere LLP', firstName: 'E', surname: 'W', login: adminLogin },
    tokens.admin,
  );
  const adminToken = await acceptInvitation(adminLogin, 'admin');
  const lawyerLogin = email('lawyer');
  const lawyer = await post(
    '/api/lawyers',
    { firstName: 'O', surname: 'L', login: lawyerLogin, firmId: firm.json().id },
    adminToken,
  );
  const lawyerToken = await acceptInvitation(lawyerLogin, 'lawyer');
  const clientEmail = email('client');
  const [user] = await server.db
    .insert(users)
    .values({ email: clientEmail, role: 'customer', firstName: 'Olive', surname: 'Other', status: 'active' })
    .returning();
  const [client] = await server.db
    .insert(clients)
    .values({ userId: user!.id, firstName: 'Olive', lastName: 'Other' })
    .returning();
  const [application] = await server.db
    .insert(applications)
    .values({ lawyerId: lawyer.json().id, clientId: client!.id, status: 'submitted' })
    .returning();
  other = { lawyerToken, adminToken, clientId: client!.id, applicationId: application!.id, clientEmail };
});
afterAll(async () => {
  await server.close();
});

describe('who may call what', () => {
  it('staff, firm admins and lawyers manage clients; customers may not', async () => {
    for (const role of ['root', 'admin', 'firm', 'lawyer'] as const) {
      expect((await get('/api/clients', tokens[role])).statusCode, role).toBe(200);
      expect((await get(`/api/clients/${demo.clientId}`, tokens[role])).statusCode, role).toBe(200);
      expect(
        (await post('/api/clients/update', { applicationId: demo.applicationId, contactNumber: '07700 900000' }, tokens[role]))
          .statusCode,
        role,
      ).toBe(200);
    }
    expect((await get('/api/clients', tokens.customer)).statusCode).toBe(403);
    expect((await get(`/api/clients/${demo.clientId}`, tokens.customer)).statusCode).toBe(403);
    expect(
      (await post('/api/clients/update', { applicationId: demo.applicationId, firstName: 'X' }, tokens.customer)).statusCode,
    ).toBe(403);
    expect((await post('/api/clients/reset-password', { email: accounts.customer.email }, tokens.customer)).statusCode).toBe(403);
    expect((await get('/api/clients')).statusCode).toBe(401);
  });

  it('scopes clients: a firm sees its lawyers’ clients, a lawyer their own; others are 404', async () => {
    const staff = (await get('/api/clients?pageSize=100', tokens.admin)).json();
    expect(staff.items.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([demo.clientId, other.clientId]));
    for (const token of [tokens.firm, tokens.lawyer]) {
      const ids = (await get('/api/clients?pageSize=100', token)).json().items.map((c: { id: number }) => c.id);
      expect(ids).toContain(demo.clientId);
      expect(ids).not.toContain(other.clientId);
      expect((await get(`/api/clients/${other.clientId}`, token)).statusCode).toBe(404);
      expect((await post('/api/clients/update', { applicationId: other.applicationId, firstName: 'X' }, token)).statusCode).toBe(
        404,
      );
      expect((await post('/api/clients/reset-password', { email: other.clientEmail }, token)).statusCode).toBe(404);
    }
    for (const token of [other.lawyerToken, other.adminToken]) {
      expect((await get('/api/clients', token)).json()).toMatchObject({
        total: 1,
        withActiveCases: 1,
        items: [{ id: other.clientId, applicationId: other.applicationId }],
      });
      expect((await get(`/api/clients/${demo.clientId}`, token)).statusCode).toBe(404);
    }
    expect((await get('/api/clients/999999', tokens.admin)).statusCode).toBe(404);
  });
});

describe('GET /clients', () => {
  it('derives clients from applications in every status, with their active cases', async () => {
    const body = (await get('/api/clients?pageSize=100', tokens.lawyer)).json();
    // 8 clients of the lawyer; providerRejected and customerRejected are over.
    expect(body).toMatchObject({ total: 8, withActiveCases: 6, page: 1, pageSize: 100 });
    const chris = body.items.find((c: { id: number }) => c.id === demo.clientId);
    expect(chris).toMatchObject({
      applicationId: demo.applicationId,
      email: accounts.customer.email,
      lastName: 'Walker',
      status: 'customerAccepted',
      activeCases: 1,
    });
    expect(chris.birthDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const tom = body.items.find((c: { email: string }) => c.email === 'tom.hughes@demo.test');
    expect(tom).toMatchObject({ status: 'providerRejected', activeCases: 0 });
  });

  it('searches and pages', async () => {
    const page1 = (await get('/api/clients?pageSize=3', tokens.lawyer)).json();
    const page3 = (await get('/api/clients?pageSize=3&page=3', tokens.lawyer)).json();
    expect(page1.items).toHaveLength(3);
    expect(page3.items).toHaveLength(2);
    expect(page1.total).toBe(8);
    const found = (await get('/api/clients?search=okafor', tokens.lawyer)).json();
    expect(found).toMatchObject({ total: 1, withActiveCases: 1 });
    expect(found.items[0].email).toBe('daniel.okafor@demo.test');
    expect((await get('/api/clients?search=Chris%20Walker', tokens.admin)).json().total).toBe(1);
  });
});

describe('POST /clients/update', () => {
  it('changes names, phone and date of birth (the account’s names follow); the email is read-only', async () => {
    const res = await post(
      '/api/clients/update',
      {
        applicationId: demo.applicationId,
        firstName: 'Christopher',
        lastName: 'Walker-Smith',
        contactNumber: '+44 7700 900 111',
        birthDay: '1985-06-30',
      },
      tokens.firm,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: demo.clientId,
      email: accounts.customer.email,
      firstName: 'Christopher',
      lastName: 'Walker-Smith',
      contactNumber: '+44 7700 900 111',
      birthDay: '1985-06-30',
    });
    expect((await get('/api/auth', tokens.customer)).json()).toMatchObject({ name: 'Christopher', surname: 'Walker-Smith' });
    const audit = await server.rows<{ actor: string }>(
      sql`select u.email as actor from audit_events e join users u on u.id = e.actor_user_id where e.entity_type = 'client' and e.entity_id = ${String(demo.clientId)} and e.action = 'updated' order by e.id desc limit 1`,
    );
    expect(audit[0]!.actor).toBe(accounts.firm.email);
    expect(
      (await post('/api/clients/update', { applicationId: demo.applicationId, birthDay: null }, tokens.admin)).json().birthDay,
    ).toBeNull();
  });

  it('refuses bad input with field codes', async () => {
    const cases: [unknown, Record<string, string>][] = [
      [{}, { applicationId: 'required' }],
      [
        { applicationId: demo.applicationId, firstName: ' ', lastName: '', contactNumber: 'none' },
        { firstName: 'required', lastName: 'required', contactNumber: 'phone' },
      ],
      [{ applicationId: demo.applicationId, contactNumber: '' }, { contactNumber: 'required' }],
      [{ applicationId: demo.applicationId, birthDay: '2999-01-01' }, { birthDay: 'futureDate' }],
      [{ applicationId: demo.applicationId, birthDay: '1990-02-30' }, { birthDay: 'invalid' }],
      [{ applicationId: demo.applicationId, email: 'new@clients.test' }, { email: 'unknownField' }],
    ];
    for (const [payload, fields] of cases) {
      const res = await post('/api/clients/update', payload, tokens.admin);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toEqual({ error: 'validation', fields });
    }
    expect((await post('/api/clients/update', { applicationId: 999999, firstName: 'X' }, tokens.admin)).statusCode).toBe(404);
  });
});

describe('POST /clients/reset-password', () => {
  it('sends the client the reset email, and the link works', async () => {
    const res = await post('/api/clients/reset-password', { email: ` ${accounts.customer.email.toUpperCase()} ` }, tokens.lawyer);
    expect(res.statusCode, res.body).toBe(204);
    const mailbox = (await get('/api/dev/mailbox')).json().emails as { to: string; links: string[] }[];
    const link = mailbox.find((e) => e.to === accounts.customer.email)?.links.find((l) => l.includes('/reset/validate/'));
    expect(link).toBeDefined();
    const token = link!.split('/').pop();
    const updated = await post('/api/users/reset/update', { token, login: accounts.customer.email, password: PASSWORD });
    expect(updated.statusCode, updated.body).toBe(200);
    await server.signIn(accounts.customer.email, PASSWORD);
    const audit = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from audit_events where entity_type = 'client' and action = 'passwordResetSent'`,
    );
    expect(audit[0]!.n).toBe(1);
  });

  it('refuses an invalid email (400) and an unknown or out-of-scope client (404)', async () => {
    expect((await post('/api/clients/reset-password', { email: 'nope' }, tokens.admin)).json()).toEqual({
      error: 'validation',
      fields: { email: 'email' },
    });
    expect((await post('/api/clients/reset-password', { email: 'nobody@clients.test' }, tokens.admin)).statusCode).toBe(404);
    // A lawyer's email is not a client's.
    expect((await post('/api/clients/reset-password', { email: accounts.lawyer.email }, tokens.admin)).statusCode).toBe(404);
  });
});
