import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { applications, applicationSteps, auditEvents, users } from '../../src/server/db/schema';
import { startTestServer, type TestServer } from './harness';
import { buildFirm, buildLawyer, buildUser, signInAs } from './factories';
import { api, freshEmail, joinAsClient, personal, secondFirm } from './applications-fixtures';

// Correcting a client's email before they join, inviting them again, and a second application for
// a client of the same lawyer (docs/decisions.md: 344).

let server: TestServer;
let a: ReturnType<typeof api>;
let lawyerToken: string;
let adminToken: string;
let firmToken: string;
let other: Awaited<ReturnType<typeof secondFirm>>;

beforeAll(async () => {
  server = await startTestServer();
  a = api(server);
  const firm = await buildFirm(server.db);
  const lawyer = await buildLawyer(server.db, { firmId: firm.id });
  lawyerToken = await signInAs(server, lawyer);
  adminToken = await signInAs(server, await buildUser(server.db, { role: 'admin' }));
  firmToken = await signInAs(server, await buildUser(server.db, { role: 'firm', firmId: firm.id }));
  other = await secondFirm(server);
});
afterAll(() => server.close());

const invite = (token: string, id: number, email: string) =>
  a.post(`/api/applications/${id}/client-invitation`, { email }, token);

async function mailbox(): Promise<{ to: string; subject: string; links: string[] }[]> {
  return (await server.call({ method: 'GET', url: '/api/dev/mailbox' })).json().emails;
}

async function invitationUuid(email: string): Promise<string> {
  const found = (await mailbox()).filter((e) => e.to === email && e.links.some((l) => l.includes('/sign-up-customer/')));
  // The newest first in the mailbox.
  const link = found[0]!.links.find((l) => l.includes('/sign-up-customer/'))!;
  return link.split('/sign-up-customer/')[1]!;
}

async function createFor(token: string, email: string, extra: Record<string, unknown> = {}) {
  const res = await a.create(token, { ...extra, journeyData: { personal: personal(email) } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; clientEmail: string; abilities: { inviteClient?: boolean } };
}

describe('POST /applications/{id}/client-invitation', () => {
  it('corrects a mistyped email before the client joins: the old link stops working, the new one works', async () => {
    const typo = freshEmail('typo');
    const created = await createFor(lawyerToken, typo);
    expect(created.abilities.inviteClient).toBe(true);
    const oldUuid = await invitationUuid(typo);

    const right = freshEmail('right');
    const res = await invite(lawyerToken, created.id, `  ${right.toUpperCase()} `);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ email: right });

    // The account and the client details follow.
    const record = (await a.get(`/api/applications/${created.id}`, lawyerToken)).json();
    expect(record.clientEmail).toBe(right);
    expect(record.journey.personal.email).toBe(right);
    expect(record.journeyVersions.personal).toBe(1);
    // A save of the client details with the corrected email is not refused as a change of email.
    const saved = await a.save(lawyerToken, 'personal', created.id, 1, { ...personal(right), firstName: 'Nina' });
    expect(saved.statusCode, saved.body).toBe(200);

    // The old link no longer works; the new one does.
    const old = await a.post('/api/users/sign-up/validate', { uuid: oldUuid }, '');
    expect(old.json()).toEqual({ error: 'invalidToken' });
    const valid = await a.post('/api/users/sign-up/validate', { uuid: await invitationUuid(right) }, '');
    expect(valid.json()).toEqual({ data: [{ login: right }] });

    const [audit] = await server.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.entityType, 'application'),
          eq(auditEvents.entityId, String(created.id)),
          eq(auditEvents.action, 'clientInvitedAgain'),
        ),
      );
    expect(audit).toMatchObject({ fromState: { email: typo }, toState: { email: right } });
  });

  it('sends the invitation again to the same address; staff may too', async () => {
    const email = freshEmail('again');
    const created = await createFor(lawyerToken, email);
    const first = await invitationUuid(email);
    expect((await invite(adminToken, created.id, email)).statusCode).toBe(200);
    const second = await invitationUuid(email);
    expect(second).not.toBe(first);
    expect((await a.post('/api/users/sign-up/validate', { uuid: first }, '')).json()).toEqual({ error: 'invalidToken' });
  });

  it('refuses a bad address, an address of another account, and a client who has joined', async () => {
    const email = freshEmail('refusals');
    const created = await createFor(lawyerToken, email);
    const bad = await invite(lawyerToken, created.id, 'not an email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'validation', fields: { email: 'email' } });

    const taken = await buildUser(server.db, { role: 'lawyer' });
    const clash = await invite(lawyerToken, created.id, taken.email);
    expect(clash.statusCode).toBe(400);
    expect(clash.json()).toMatchObject({ error: 'validation', fields: { email: 'login' } });

    await joinAsClient(server, email);
    const joined = await invite(lawyerToken, created.id, freshEmail('late'));
    expect(joined.statusCode).toBe(409);
    expect(joined.json()).toMatchObject({ error: 'clientJoined' });
    expect((await a.get(`/api/applications/${created.id}`, lawyerToken)).json().abilities.inviteClient).toBe(false);
  });

  it('is the lawyer’s own applications only: another lawyer gets 404, a firm admin 403', async () => {
    const created = await createFor(lawyerToken, freshEmail('scope'));
    expect((await invite(other.lawyerToken, created.id, freshEmail('x'))).statusCode).toBe(404);
    expect((await invite(firmToken, created.id, freshEmail('x'))).statusCode).toBe(403);
  });

  it('is limited to 5 an hour per application', async () => {
    const email = freshEmail('limit');
    const created = await createFor(lawyerToken, email);
    for (let i = 0; i < 5; i++) expect((await invite(lawyerToken, created.id, email)).statusCode).toBe(200);
    const sixth = await invite(lawyerToken, created.id, email);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ error: 'tooManyAttempts' });
  });
});

describe('a new application for a client who has an account', () => {
  it('the same lawyer’s client gets the new application on their account, and is told by email', async () => {
    const email = freshEmail('returning');
    const first = await createFor(lawyerToken, email);
    await joinAsClient(server, email);
    const [account] = await server.db.select().from(users).where(eq(users.email, email));

    const second = await createFor(lawyerToken, email);
    expect(second.id).not.toBe(first.id);
    const rows = await server.db.select().from(applications).where(eq(applications.id, second.id));
    const firstRow = (await server.db.select().from(applications).where(eq(applications.id, first.id)))[0]!;
    expect(rows[0]!.clientId).toBe(firstRow.clientId);
    expect((await server.db.select().from(users).where(eq(users.email, email))).length).toBe(1);
    expect(account!.status).toBe('active');
    const told = (await mailbox()).find((e) => e.to === email && e.subject.startsWith('A new application'));
    expect(told?.links.some((l) => l.endsWith('/sign-in'))).toBe(true);
    const steps = await server.db.select().from(applicationSteps).where(eq(applicationSteps.applicationId, second.id));
    expect(steps.map((s) => s.step)).toEqual(['personal']);
  });

  it('a client of another lawyer stays refused with the spec’s message', async () => {
    const email = freshEmail('theirs');
    await createFor(other.lawyerToken, email);
    const res = await a.create(lawyerToken, { journeyData: { personal: personal(email) } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation', fields: { login: 'login' } });
  });

  it('an account that is no client (a lawyer’s) stays refused', async () => {
    const lawyer = await buildUser(server.db, { role: 'lawyer' });
    const res = await a.create(lawyerToken, { journeyData: { personal: personal(lawyer.email) } });
    expect(res.json()).toMatchObject({ error: 'validation', fields: { login: 'login' } });
  });
});
