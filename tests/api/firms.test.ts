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
});
afterAll(async () => {
  await server.close();
});

const PASSWORD = 'New-pass-123';
const get = (url: string, token?: string) => server.call({ method: 'GET', url, token });
const post = (url: string, payload: unknown, token?: string) =>
  server.call({ method: 'POST', url, payload: payload as object, token });
const del = (url: string, token?: string) => server.call({ method: 'DELETE', url, token });

let unique = 0;
const email = (name: string) => `${name}.${++unique}@firms.test`;

/** Follows the newest invitation link sent to this address and signs up; returns the token. */
async function acceptInvitation(to: string, kind: 'admin' | 'lawyer'): Promise<string> {
  const mailbox = await get('/api/dev/mailbox');
  const link = (mailbox.json().emails as { to: string; links: string[] }[])
    .find((e) => e.to === to)
    ?.links.find((l) => l.includes(`/sign-up-${kind}/`));
  if (!link) throw new Error(`no /sign-up-${kind}/ link for ${to}`);
  const uuid = link.split('/').pop()!;
  const res = await post('/api/users/sign-up/complete', { login: to, password: PASSWORD, uuid });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().userToken as string;
}

async function createFirm(name = 'Firm', token = tokens.admin) {
  const login = email('admin');
  const res = await post('/api/firms', { firmName: `${name} ${unique}`, firstName: 'Ada', surname: 'Admin', login }, token);
  expect(res.statusCode, res.body).toBe(201);
  return { firm: res.json() as { id: number; firmName: string; login: string }, login };
}

async function createLawyer(firmId: number, token = tokens.admin) {
  const login = email('lawyer');
  const res = await post('/api/lawyers', { firstName: 'Lee', surname: 'Lawyer', login, firmId }, token);
  expect(res.statusCode, res.body).toBe(201);
  return { lawyer: res.json() as { id: number }, login };
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

describe('who may call what', () => {
  it('lists, creates, updates and deletes firms: staff only', async () => {
    for (const role of ['firm', 'lawyer', 'customer'] as const) {
      expect((await get('/api/firms', tokens[role])).statusCode, role).toBe(403);
      expect(
        (await post('/api/firms', { firmName: 'X', firstName: 'X', surname: 'X', login: email('x') }, tokens[role])).statusCode,
        role,
      ).toBe(403);
      expect((await post('/api/firms/update', { firmId: seededFirmId, firmName: 'X' }, tokens[role])).statusCode, role).toBe(403);
      expect((await del(`/api/firms/${seededFirmId}`, tokens[role])).statusCode, role).toBe(403);
    }
    for (const role of ['root', 'admin'] as const) {
      expect((await get('/api/firms', tokens[role])).statusCode, role).toBe(200);
      await createFirm(`By ${role}`, tokens[role]);
    }
  });

  it('reads a firm, its lawyers and its loan totals: staff and the firm’s own admin; others 404', async () => {
    const paths = [
      `/api/firms/${seededFirmId}`,
      `/api/firms/${seededFirmId}/lawyers`,
      `/api/firms/${seededFirmId}/loans/aggregate`,
    ];
    for (const path of paths) {
      for (const role of ['root', 'admin', 'firm'] as const)
        expect((await get(path, tokens[role])).statusCode, `${role} ${path}`).toBe(200);
      for (const role of ['lawyer', 'customer'] as const)
        expect((await get(path, tokens[role])).statusCode, `${role} ${path}`).toBe(404);
    }
    const { firm: other } = await createFirm('Other');
    for (const path of [`/api/firms/${other.id}`, `/api/firms/${other.id}/lawyers`, `/api/firms/${other.id}/loans/aggregate`]) {
      expect((await get(path, tokens.firm)).statusCode, path).toBe(404);
      expect((await get(path, tokens.admin)).statusCode, path).toBe(200);
    }
  });

  it('answers 401 without a session', async () => {
    expect((await get('/api/firms')).statusCode).toBe(401);
    expect((await get(`/api/firms/${seededFirmId}`)).statusCode).toBe(401);
  });
});

describe('GET /firms', () => {
  it('shows each firm with its admin, lawyers and active cases, and the lawyers across firms', async () => {
    const res = await get('/api/firms?pageSize=100', tokens.admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const seeded = body.items.find((f: { id: number }) => f.id === seededFirmId);
    // The seed's lawyer has 8 applications; providerRejected and customerRejected are over.
    expect(seeded).toEqual({
      id: seededFirmId,
      firmName: 'Harbour & Vale Solicitors LLP',
      firstName: 'Fiona',
      surname: 'Hale',
      login: demoAccounts.firm,
      casesAmount: 6,
      lawyersCount: 1,
      // Its lawyer has active cases: deleting it would be refused, so it is not offered (decision 457).
      abilities: { edit: true, delete: false },
    });
    // The firm's own admin reads it; only staff change or delete it.
    expect((await get(`/api/firms/${seededFirmId}`, tokens.firm)).json().abilities).toEqual({ edit: false, delete: false });
    const [lawyers] = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from lawyers l join firms f on f.id = l.firm_id where l.deleted_at is null and f.deleted_at is null`,
    );
    expect(body.lawyersCount).toBe(lawyers!.n);
    expect(body.total).toBe(body.items.length);
  });

  it('searches by firm name, admin name or login, and pages', async () => {
    const tag = `Searchable${Date.now()}`;
    for (let i = 0; i < 3; i++) await createFirm(tag);
    const page1 = (await get(`/api/firms?search=${tag}&pageSize=2&page=1`, tokens.admin)).json();
    const page2 = (await get(`/api/firms?search=${tag}&pageSize=2&page=2`, tokens.admin)).json();
    expect(page1).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page1.items).toHaveLength(2);
    expect(page2.items).toHaveLength(1);
    expect(new Set([...page1.items, ...page2.items].map((f: { id: number }) => f.id)).size).toBe(3);
    const byLogin = (await get(`/api/firms?search=${encodeURIComponent(demoAccounts.firm)}`, tokens.admin)).json();
    expect(byLogin.items.map((f: { id: number }) => f.id)).toEqual([seededFirmId]);
    const wildcard = (await get('/api/firms?search=%25%25%25', tokens.admin)).json();
    expect(wildcard.total).toBe(0);
  });
});

describe('POST /firms', () => {
  it('creates the firm and its invited admin, mails /sign-up-admin/{uuid}, and the admin can join and sign in', async () => {
    const { firm, login } = await createFirm('Created');
    expect(firm).toMatchObject({ firstName: 'Ada', surname: 'Admin', login, casesAmount: 0, lawyersCount: 0 });
    const [account] = await server.rows<{ role: string; status: string; firm_id: number; password_hash: string | null }>(
      sql`select role, status, firm_id, password_hash from users where email = ${login}`,
    );
    expect(account).toEqual({ role: 'firm', status: 'invited', firm_id: firm.id, password_hash: null });
    const [mail] = await server.rows<{ user_type: string; html_body: string }>(
      sql`select user_type, html_body from emails where to_address = ${login}`,
    );
    expect(mail!.user_type).toBe('admin');
    expect(mail!.html_body).toMatch(/\/sign-up-admin\/[0-9a-f-]{36}/);

    const token = await acceptInvitation(login, 'admin');
    const session = (await get('/api/auth', token)).json();
    expect(session).toMatchObject({ role: 'firm', firmId: firm.id, email: login });
    await server.signIn(login, PASSWORD);
    expect((await get(`/api/firms/${firm.id}`, token)).statusCode).toBe(200);
    const audit = await server.rows<{ action: string }>(
      sql`select action from audit_events where entity_type = 'firm' and entity_id = ${String(firm.id)}`,
    );
    expect(audit.map((a) => a.action)).toContain('created');
  });

  it('refuses bad input with field codes, and a login that already has an account', async () => {
    const cases: [unknown, Record<string, string>][] = [
      [{}, { firmName: 'required', firstName: 'required', surname: 'required', login: 'required' }],
      [
        { firmName: ' ', firstName: '', surname: 'S', login: 'not-an-email' },
        { firmName: 'required', firstName: 'required', login: 'email' },
      ],
      [{ firmName: 'F', firstName: 'F', surname: 'S', login: ' Lawyer@Demo.Test ' }, { login: 'login' }],
      [{ firmName: 'F', firstName: 'F', surname: 'S', login: 'a@b.co', extra: 1 }, { extra: 'unknownField' }],
    ];
    for (const [payload, fields] of cases) {
      const res = await post('/api/firms', payload, tokens.admin);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error: 'validation', fields });
    }
  });
});

describe('POST /firms/update', () => {
  it('changes the firm name and the admin’s names; the login cannot change', async () => {
    const { firm, login } = await createFirm('Renamed');
    const res = await post(
      '/api/firms/update',
      { firmId: firm.id, firmName: 'New Name LLP', firstName: 'Bea', surname: 'Boss' },
      tokens.admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: firm.id, firmName: 'New Name LLP', firstName: 'Bea', surname: 'Boss', login });
    const login2 = await post('/api/firms/update', { firmId: firm.id, login: 'other@firms.test' }, tokens.admin);
    expect(login2.statusCode).toBe(400);
    expect(login2.json()).toEqual({ error: 'validation', fields: { login: 'unknownField' } });
    const empty = await post('/api/firms/update', { firmId: firm.id, firmName: '  ' }, tokens.admin);
    expect(empty.json()).toEqual({ error: 'validation', fields: { firmName: 'required' } });
    expect((await post('/api/firms/update', { firmId: 999999, firmName: 'X' }, tokens.admin)).statusCode).toBe(404);
    const audit = await server.rows<{ from_state: unknown; to_state: unknown }>(
      sql`select from_state, to_state from audit_events where entity_type = 'firm' and entity_id = ${String(firm.id)} and action = 'updated'`,
    );
    expect(audit).toEqual([{ from_state: { firmName: firm.firmName }, to_state: { firmName: 'New Name LLP' } }]);
  });
});

describe('DELETE /firms/{id}', () => {
  it('refuses a firm whose lawyers have active cases (400 hasActiveCases)', async () => {
    const res = await del(`/api/firms/${seededFirmId}`, tokens.admin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'hasActiveCases' });
    expect((await get(`/api/firms/${seededFirmId}`, tokens.admin)).statusCode).toBe(200);
  });

  it('soft-deletes the firm, its lawyers and accounts (sessions end), and keeps their history readable', async () => {
    const { firm, login: adminLogin } = await createFirm('Closing');
    const adminToken = await acceptInvitation(adminLogin, 'admin');
    const { lawyer, login: lawyerLogin } = await createLawyer(firm.id, adminToken);
    const lawyerToken = await acceptInvitation(lawyerLogin, 'lawyer');
    const rejected = await addApplication(lawyer.id, 'providerRejected');
    const active = await addApplication(lawyer.id, 'submitted');

    expect((await get(`/api/firms/${firm.id}`, tokens.admin)).json().abilities).toEqual({ edit: true, delete: false });
    expect((await del(`/api/firms/${firm.id}`, tokens.admin)).json()).toEqual({ error: 'hasActiveCases' });
    await server.db.execute(sql`update applications set status = 'customerRejected' where id = ${active}`);
    expect((await get(`/api/firms/${firm.id}`, tokens.admin)).json().abilities).toEqual({ edit: true, delete: true });

    expect((await del(`/api/firms/${firm.id}`, tokens.admin)).statusCode).toBe(204);
    expect((await get(`/api/firms/${firm.id}`, tokens.admin)).statusCode).toBe(404);
    expect((await del(`/api/firms/${firm.id}`, tokens.admin)).statusCode).toBe(404);
    expect((await get(`/api/lawyers/${lawyer.id}`, tokens.admin)).statusCode).toBe(404);
    // Sessions ended; neither can sign in again.
    expect((await get('/api/auth', adminToken)).statusCode).toBe(401);
    expect((await get('/api/auth', lawyerToken)).statusCode).toBe(401);
    for (const login of [adminLogin, lawyerLogin]) {
      expect((await post('/api/auth', { login, password: PASSWORD })).statusCode).toBe(401);
    }
    const listed = (await get('/api/firms?pageSize=100', tokens.admin)).json();
    expect(listed.items.map((f: { id: number }) => f.id)).not.toContain(firm.id);

    // History: the rows stay, the audit trail names the deletion, and the application still reads.
    const [row] = await server.rows<{ deleted: boolean }>(
      sql`select deleted_at is not null as deleted from firms where id = ${firm.id}`,
    );
    expect(row!.deleted).toBe(true);
    const audit = await server.rows<{ entity_type: string; action: string }>(
      sql`select entity_type, action from audit_events where action = 'deleted' and ((entity_type = 'firm' and entity_id = ${String(firm.id)}) or (entity_type = 'lawyer' and entity_id = ${String(lawyer.id)}))`,
    );
    expect(audit).toHaveLength(2);
    const application = await get(`/api/applications/${rejected}`, tokens.admin);
    expect([200, 501], application.body).toContain(application.statusCode);
    if (application.statusCode === 200)
      expect(application.json()).toMatchObject({ id: rejected, lawyerId: lawyer.id, firmId: firm.id });

    // The email may be used again for a new account.
    const again = await post('/api/firms', { firmName: 'Reborn', firstName: 'A', surname: 'B', login: adminLogin }, tokens.admin);
    expect(again.statusCode, again.body).toBe(201);
  });
});

describe('a firm’s lawyers and loan totals', () => {
  it('lists the firm’s lawyers with their active cases', async () => {
    const res = await get(`/api/firms/${seededFirmId}/lawyers`, tokens.firm);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 1, page: 1, pageSize: 10 });
    expect(res.json().items[0]).toMatchObject({
      id: seededLawyerId,
      login: demoAccounts.lawyer,
      casesAmount: 6,
      firm: { id: seededFirmId },
    });
  });

  it('sums the firm’s loans and the drawdowns that use credit', async () => {
    const res = await get(`/api/firms/${seededFirmId}/loans/aggregate`, tokens.admin);
    expect(res.statusCode).toBe(200);
    // The seed's loan: £50,000; drawdowns paid 5,000 + client accepted 3,000 + pending 4,000 + requested 2,500 (the rejected 1,000 does not count).
    expect(res.json()).toMatchObject({
      loansSum: 50000,
      totalDrawdowns: 14500,
      loansCount: 1,
      dateCustomerAccepted: expect.any(String),
    });
    const { firm } = await createFirm('Empty');
    expect((await get(`/api/firms/${firm.id}/loans/aggregate`, tokens.admin)).json()).toEqual({
      loansSum: 0,
      totalDrawdowns: 0,
      loansCount: 0,
      dateCustomerAccepted: null,
    });
  });
});
