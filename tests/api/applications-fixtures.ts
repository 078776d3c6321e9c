import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../src/server/auth/passwords';
import { firms, lawyers, users } from '../../src/server/db/schema';
import { DEMO_PASSWORD, type TestServer } from './harness';
import { validPersonal, validSteps } from '../fixtures/journeys';

/** Answers that pass every rule of their step (lawyer wording). */
export const personal = validPersonal;
export { validSteps };

/** One bad payload per step, with the codes the server must answer. */
export const badSteps: Record<string, { data: Record<string, unknown>; fields: Record<string, string> }> = {
  personal: {
    data: { email: 'x@y.test', contactNumber: 'call me', addressHistory: [] },
    fields: { firstName: 'required', contactNumber: 'phone', addressHistory: 'required' },
  },
  client: { data: { clientAgree: false }, fields: { clientAgree: 'required' } },
  case: {
    data: { ...validSteps.case, preNuptualAgreement: true, caseRef: ' ' },
    fields: { preNuptialDetails: 'required', caseRef: 'required' },
  },
  financial: {
    data: { monthlyIncome: 2500, intendedHousingArrangements: '   ' },
    fields: { estimationOfSettlementAmount: 'required', intendedHousingArrangements: 'required' },
  },
  asset: {
    data: {
      ...validSteps.asset,
      includeOtherAssets: true,
      assets: [{ type: 'other', valueOfRealisable: 10, clientsInterest: 50 }, { type: 'savings' }],
    },
    fields: { 'assets.0.typeoOther': 'required', 'assets.1.valueOfRealisable': 'required' },
  },
  independent: { data: { useOwnSolicitor: false, consent: true }, fields: { solicitorId: 'required', authorised: 'required' } },
};

let counter = 0;
/** A fresh email no account has. */
export function freshEmail(prefix = 'client'): string {
  counter += 1;
  return `${prefix}.${counter}.${randomUUID().slice(0, 8)}@example.test`;
}

export function api(server: TestServer) {
  const post = (url: string, payload: unknown, token: string, headers: Record<string, string> = {}) =>
    server.call({ method: 'POST', url, payload: payload as object, token, headers });
  const get = (url: string, token: string) => server.call({ method: 'GET', url, token });
  return {
    post,
    get,
    create: (token: string, body: unknown, headers?: Record<string, string>) =>
      post('/api/applications/create', body, token, headers),
    save: (
      token: string,
      step: string,
      applicationId: number,
      baseVersion: number,
      data: unknown,
      headers?: Record<string, string>,
    ) => post(`/api/applications/update/${step}`, { applicationId, baseVersion, journeyData: { [step]: data } }, token, headers),
    submit: (token: string, applicationId: number, headers?: Record<string, string>) =>
      post('/api/applications/state/update', { applicationId, state: 'submitted' }, token, headers),
    list: (token: string, query = '') => get(`/api/applications${query}`, token),
  };
}

/** A second firm with its own lawyer (and firm admin), signed in. */
export async function secondFirm(server: TestServer) {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const [firm] = await server.db
    .insert(firms)
    .values({ name: `Other Firm ${randomUUID().slice(0, 6)}` })
    .returning();
  const lawyerEmail = freshEmail('lawyer');
  const firmEmail = freshEmail('firm');
  const [lawyerUser] = await server.db
    .insert(users)
    .values({
      email: lawyerEmail,
      role: 'lawyer',
      firstName: 'Owen',
      surname: 'Marsh',
      firmId: firm!.id,
      passwordHash,
      status: 'active',
    })
    .returning();
  await server.db.insert(users).values({
    email: firmEmail,
    role: 'firm',
    firstName: 'Fay',
    surname: 'Lord',
    firmId: firm!.id,
    passwordHash,
    status: 'active',
  });
  const [lawyer] = await server.db.insert(lawyers).values({ userId: lawyerUser!.id, firmId: firm!.id }).returning();
  return {
    firmId: firm!.id,
    lawyerId: lawyer!.id,
    lawyerToken: await server.signIn(lawyerEmail),
    firmToken: await server.signIn(firmEmail),
  };
}

/** The client accepts the invitation in the mailbox and signs in; answers the client's token. */
export async function joinAsClient(server: TestServer, email: string): Promise<string> {
  const mailbox = await server.call({ method: 'GET', url: '/api/dev/mailbox' });
  const invitation = (mailbox.json().emails as { to: string; links: string[] }[]).find((e) => e.to === email);
  const link = invitation?.links.find((l) => l.includes('/sign-up-customer/'));
  expect(link, `invitation to ${email}`).toBeTruthy();
  const uuid = link!.split('/sign-up-customer/')[1]!;
  const res = await server.call({
    method: 'POST',
    url: '/api/users/sign-up/complete',
    payload: { login: email, password: DEMO_PASSWORD, uuid },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().userToken as string;
}

export async function count(server: TestServer, table: string): Promise<number> {
  const [row] = await server.rows<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`);
  return row!.n;
}

/** What a write stores, counted, so a refused write can be shown to have stored nothing. */
export async function snapshot(server: TestServer) {
  const [steps] = await server.rows<{ v: number }>(sql`select coalesce(sum(version), 0)::int as v from application_steps`);
  return {
    applications: await count(server, 'applications'),
    users: await count(server, 'users'),
    clients: await count(server, 'clients'),
    emails: await count(server, 'emails'),
    steps: await count(server, 'application_steps'),
    versions: steps!.v,
    audit: await count(server, 'audit_events'),
  };
}
