import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { applications, clients, users } from '../../src/server/db/schema';
import { demoAccounts } from '../../src/server/seed/seed';
import type { ApplicationStatus } from '../../src/shared/rules/statuses';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
const tokens = {} as Record<'root' | 'admin' | 'firm' | 'lawyer' | 'customer', string>;
let seededFirmId: number;
let seededLawyerId: number;
/** A second firm, with its own signed-up admin and one lawyer. */
let other: { firmId: number; adminToken: string; lawyerId: number };

const PASSWORD = 'New-pass-123';
const get = (url: string, token?: string) => server.call({ method: 'GET', url, token });
const post = (url: string, payload: unknown, token?: string) =>
  server.call({ method: 'POST', url, payload: payload as object, token });
const del = (url: string, token?: string) => server.call({ method: 'DELETE', url, token });

let unique = 0;
const email = (name: string) => `${name}.${++unique}@lawyers.test`;

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

async function createLawyer(firmId: number, token: string, name = 'Lee') {
  const login = email('lawyer');
  const res = await post('/api/lawyers', { firstName: name, surname: 'Lawyer', login, firmId }, token);
  expect(res.statusCode, res.body).toBe(201);
  return { lawyer: res.json() as { id: number; firmId: number }, login };
}

async function addApplication(lawyerId: number, status: ApplicationStatus) {
  const [user] = await server.db
    .insert(users)
    .values({ email: email('client'), role: 'customer', firstName: 'Cara', surname: 'Client' })
    .returning();
  const [client] = await server.db
    .insert(clients)
    .values({ userId: user!.id, firstName: 'Cara', lastName: 'Client' })
    .returning();
  const [application] = await server.db.insert(applications).values({ lawyerId, clientId: client!.id, status }).returning();
  return application!.id;
}

beforeAll(async () => {
  server = await startTestServer({}, { seed: true });
  for (const role of Object.keys(demoAccounts) as (keyof typeof demoAccounts)[])
    tokens[role] = await server.signIn(demoAccounts[role]);
  const [firm] = await server.rows<{ firm_id: number }>(sql`select firm_id from users where email = ${demoAccounts.firm}`);
  seededFirmId = firm!.firm_id;
  const [lawyer] = await server.rows<{ id: number }>(
    sql`select l.id from lawyers l join users u on u.id = l.user_id where u.email = ${demoAccounts.lawyer}`,
  );
  seededLawyerId = lawyer!.id;
  const adminLogin = email('admin');
  const created = await post(
    '/api/firms',
    { firmName: 'Other Firm LLP', firstName: 'Olga', surname: 'Other', login: adminLogin },
    tokens.admin,
  );
  const adminToken = await acceptInvitation(adminLogin, 'admin');
  const { lawyer: otherLawyer } = await createLawyer(created.json().id, adminToken, 'Otto');
  other = { firmId: created.json().id, adminToken, lawyerId: otherLawyer.id };
});
afterAll(async () => {
  await server.close();
});

describe('who may call what', () => {
  it('staff and firm admins manage lawyers; lawyers and customers may not', async () => {
    for (const role of ['lawyer', 'customer'] as const) {
      for (const [method, url, payload] of [
        ['GET', '/api/lawyers'],
        ['GET', '/api/lawyers/count'],
        ['GET', `/api/lawyers/${seededLawyerId}`],
        ['POST', '/api/lawyers', { firstName: 'A', surname: 'B', login: email('x'), firmId: seededFirmId }],
        ['POST', '/api/lawyers/update', { lawyerId: seededLawyerId, firstName: 'X' }],
        ['DELETE', `/api/lawyers/${seededLawyerId}`],
      ] as const) {
        const res = await server.call({ method, url, token: tokens[role], ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
      }
    }
    for (const role of ['root', 'admin', 'firm'] as const) {
      expect((await get('/api/lawyers', tokens[role])).statusCode, role).toBe(200);
      expect((await get('/api/lawyers/count', tokens[role])).statusCode, role).toBe(200);
      expect((await get(`/api/lawyers/${seededLawyerId}`, tokens[role])).statusCode, role).toBe(200);
    }
  });

  it('a firm admin reaching another firm’s lawyer gets 404, for every call', async () => {
    expect((await get(`/api/lawyers/${other.lawyerId}`, tokens.firm)).statusCode).toBe(404);
    expect((await post('/api/lawyers/update', { lawyerId: other.lawyerId, firstName: 'Hacked' }, tokens.firm)).statusCode).toBe(
      404,
    );
    expect((await del(`/api/lawyers/${other.lawyerId}`, tokens.firm)).statusCode).toBe(404);
    expect(
      (await post('/api/lawyers', { firstName: 'A', surname: 'B', login: email('x'), firmId: other.firmId }, tokens.firm))
        .statusCode,
    ).toBe(404);
    const listed = (await get(`/api/lawyers?firmId=${other.firmId}`, tokens.firm)).json();
    expect(listed).toMatchObject({ items: [], total: 0 });
    const all = (await get('/api/lawyers?pageSize=100', tokens.firm)).json();
    expect(all.items.every((l: { firmId: number }) => l.firmId === seededFirmId)).toBe(true);
    // And the other way round.
    expect((await get(`/api/lawyers/${seededLawyerId}`, other.adminToken)).statusCode).toBe(404);
    expect((await get(`/api/lawyers/${other.lawyerId}`, other.adminToken)).statusCode).toBe(200);
    const [name] = await server.rows<{ first_name: string }>(
      sql`select u.first_name from lawyers l join users u on u.id = l.user_id where l.id = ${other.lawyerId}`,
    );
    expect(name!.first_name).toBe('Otto');
  });
});

describe('GET /lawyers and /lawyers/count', () => {
  it('shows each lawyer with firm, state and active cases', async () => {
    const res = await get(`/api/lawyers/${seededLawyerId}`, tokens.admin);
    expect(res.json()).toEqual({
      id: seededLawyerId,
      firstName: 'Laura',
      surname: 'Bennett',
      login: demoAccounts.lawyer,
      firmId: seededFirmId,
      firm: { id: seededFirmId, firmName: 'Harbour & Vale Solicitors LLP' },
      casesAmount: 6,
      state: 'active',
      // Active cases: deleting would be refused, so it is not offered (decision 457).
      abilities: { edit: true, delete: false },
    });
    expect((await get(`/api/lawyers/${seededLawyerId}`, tokens.firm)).json().abilities).toEqual({ edit: true, delete: false });
  });

  it('counts lawyers on the hub and those with active cases, per scope', async () => {
    const staff = (await get('/api/lawyers/count', tokens.admin)).json();
    const [all] = await server.rows<{ n: number }>(sql`select count(*)::int as n from lawyers where deleted_at is null`);
    expect(staff.total).toBe(all!.n);
    expect(staff.withActiveCases).toBe(1);
    expect((await get('/api/lawyers/count', tokens.firm)).json()).toEqual({ total: 1, withActiveCases: 1 });
    expect((await get(`/api/lawyers/count?firmId=${other.firmId}`, tokens.admin)).json()).toEqual({
      total: 1,
      withActiveCases: 0,
    });
  });

  it('searches and pages', async () => {
    const tag = `Zed${Date.now()}`;
    for (let i = 0; i < 3; i++) await createLawyer(other.firmId, tokens.admin, tag);
    const page1 = (await get(`/api/lawyers?search=${tag}&pageSize=2`, tokens.admin)).json();
    const page2 = (await get(`/api/lawyers?search=${tag}&pageSize=2&page=2`, tokens.admin)).json();
    expect(page1).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page1.items).toHaveLength(2);
    expect(page2.items).toHaveLength(1);
    expect((await get(`/api/lawyers?search=${tag}`, tokens.firm)).json().total).toBe(0);
    expect((await get(`/api/lawyers/count?search=${tag}`, tokens.admin)).json()).toEqual({ total: 3, withActiveCases: 0 });
    expect((await get('/api/lawyers?search=Bennett', tokens.admin)).json().items.map((l: { id: number }) => l.id)).toEqual([
      seededLawyerId,
    ]);
  });
});

describe('POST /lawyers', () => {
  it('a firm admin adds a lawyer to their own firm, who is invited (/sign-up-lawyer/{uuid}) and can join', async () => {
    const { lawyer, login } = await createLawyer(seededFirmId, tokens.firm);
    expect(lawyer).toMatchObject({ firmId: seededFirmId, login, state: 'invited', casesAmount: 0, firm: { id: seededFirmId } });
    const token = await acceptInvitation(login, 'lawyer');
    expect((await get('/api/auth', token)).json()).toMatchObject({ role: 'lawyer', lawyerId: lawyer.id, firmId: seededFirmId });
    expect((await get(`/api/lawyers/${lawyer.id}`, tokens.admin)).json().state).toBe('active');
  });

  it('staff name the firm; an unknown or deleted firm is 404', async () => {
    const { lawyer } = await createLawyer(other.firmId, tokens.root);
    expect(lawyer.firmId).toBe(other.firmId);
    expect(
      (await post('/api/lawyers', { firstName: 'A', surname: 'B', login: email('x'), firmId: 999999 }, tokens.admin)).statusCode,
    ).toBe(404);
  });

  it('refuses bad input with field codes, and a login that already has an account', async () => {
    const cases: [unknown, Record<string, string>][] = [
      [{}, { firstName: 'required', surname: 'required', login: 'required', firmId: 'required' }],
      [
        { firstName: '', surname: ' ', login: 'nope', firmId: seededFirmId },
        { firstName: 'required', surname: 'required', login: 'email' },
      ],
      [{ firstName: 'A', surname: 'B', login: demoAccounts.customer, firmId: seededFirmId }, { login: 'login' }],
    ];
    for (const [payload, fields] of cases) {
      const res = await post('/api/lawyers', payload, tokens.firm);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error: 'validation', fields });
    }
  });
});

describe('POST /lawyers/update', () => {
  it('changes the names; the login is read-only', async () => {
    const { lawyer, login } = await createLawyer(seededFirmId, tokens.firm);
    const res = await post('/api/lawyers/update', { lawyerId: lawyer.id, firstName: 'Nina', surname: 'New' }, tokens.firm);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: lawyer.id, firstName: 'Nina', surname: 'New', login });
    const withLogin = await post('/api/lawyers/update', { lawyerId: lawyer.id, login: 'changed@lawyers.test' }, tokens.admin);
    expect(withLogin.json()).toEqual({ error: 'validation', fields: { login: 'unknownField' } });
    expect((await post('/api/lawyers/update', { lawyerId: lawyer.id, firstName: '' }, tokens.admin)).json()).toEqual({
      error: 'validation',
      fields: { firstName: 'required' },
    });
    expect((await post('/api/lawyers/update', { lawyerId: 999999, firstName: 'X' }, tokens.admin)).statusCode).toBe(404);
  });
});

describe('DELETE /lawyers/{id}', () => {
  it('refuses a lawyer with active cases (400 hasActiveCases)', async () => {
    const res = await del(`/api/lawyers/${seededLawyerId}`, tokens.firm);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'hasActiveCases' });
  });

  it('soft-deletes a lawyer without active cases: sessions end, sign-in fails, history stays', async () => {
    const { lawyer, login } = await createLawyer(seededFirmId, tokens.firm);
    const token = await acceptInvitation(login, 'lawyer');
    const finished = await addApplication(lawyer.id, 'customerRejected');
    // A signed case whose loan is settled is over too.
    const settled = await addApplication(lawyer.id, 'customerAccepted');
    const [loan] = await server.rows<{ id: number }>(
      sql`insert into loans (application_id, amount_pence, status) values (${settled}, 100000, 'open') returning id`,
    );
    expect((await get(`/api/lawyers/${lawyer.id}`, tokens.firm)).json().abilities).toEqual({ edit: true, delete: false });
    expect((await del(`/api/lawyers/${lawyer.id}`, tokens.firm)).json()).toEqual({ error: 'hasActiveCases' });
    await server.db.execute(sql`update loans set status = 'closed' where id = ${loan!.id}`);
    expect((await get(`/api/lawyers/${lawyer.id}`, tokens.firm)).json().abilities).toEqual({ edit: true, delete: true });

    expect((await del(`/api/lawyers/${lawyer.id}`, tokens.firm)).statusCode).toBe(204);
    expect((await get(`/api/lawyers/${lawyer.id}`, tokens.admin)).statusCode).toBe(404);
    expect((await get('/api/auth', token)).statusCode).toBe(401);
    expect((await post('/api/auth', { login, password: PASSWORD })).statusCode).toBe(401);
    const [row] = await server.rows<{ lawyer_deleted: boolean; user_deleted: boolean }>(
      sql`select l.deleted_at is not null as lawyer_deleted, u.deleted_at is not null as user_deleted from lawyers l join users u on u.id = l.user_id where l.id = ${lawyer.id}`,
    );
    expect(row).toEqual({ lawyer_deleted: true, user_deleted: true });
    const application = await get(`/api/applications/${finished}`, tokens.admin);
    expect([200, 501], application.body).toContain(application.statusCode);
    const audit = await server.rows<{ action: string }>(
      sql`select action from audit_events where entity_type = 'lawyer' and entity_id = ${String(lawyer.id)} order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['created', 'deleted']);
  });
});
