import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { applications, applicationSteps, clients, users } from '../../src/server/db/schema';
import { demoAccounts } from '../../src/server/seed/seed';
import type { ApplicationStatus } from '../../src/shared/rules/statuses';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
const tokens = {} as Record<'root' | 'admin' | 'firm' | 'lawyer' | 'customer', string>;
let greenwayId: number;
let northgateId: number;
let seededLawyerId: number;

const get = (url: string, token?: string) => server.call({ method: 'GET', url, token });
const post = (url: string, payload: unknown, token?: string) =>
  server.call({ method: 'POST', url, payload: payload as object, token });
const del = (url: string, token?: string) => server.call({ method: 'DELETE', url, token });

let unique = 0;
const valid = () => ({
  name: `Advice ${++unique}`,
  address: { postcode: 'EC1A 1BB', street: 'King Street' },
  contactNumber: '+44 (0)20 7946 0999',
  email: `advice.${unique}@solicitors.test`,
  fee: 249.99,
  deliveryMethod: 'Phone',
});

async function create(token = tokens.admin, body: Record<string, unknown> = valid()) {
  const res = await post('/api/solicitors', body, token);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; name: string; email: string };
}

/** An application of the demo lawyer whose independent step names the solicitor. */
async function chooseSolicitor(solicitorId: number, status: ApplicationStatus) {
  const [user] = await server.db
    .insert(users)
    .values({ email: `client.${++unique}@solicitors.test`, role: 'customer', firstName: 'C', surname: 'D' })
    .returning();
  const [client] = await server.db.insert(clients).values({ userId: user!.id, firstName: 'C', lastName: 'D' }).returning();
  const [application] = await server.db
    .insert(applications)
    .values({ lawyerId: seededLawyerId, clientId: client!.id, status })
    .returning();
  await server.db.insert(applicationSteps).values({
    applicationId: application!.id,
    step: 'independent',
    data: { useOwnSolicitor: false, solicitorId, consent: true },
  });
  return application!.id;
}

beforeAll(async () => {
  server = await startTestServer({}, { seed: true });
  for (const role of Object.keys(demoAccounts) as (keyof typeof demoAccounts)[])
    tokens[role] = await server.signIn(demoAccounts[role]);
  const rows = await server.rows<{ id: number; name: string }>(sql`select id, name from solicitors order by id`);
  greenwayId = rows.find((r) => r.name.startsWith('Greenway'))!.id;
  northgateId = rows.find((r) => r.name.startsWith('Northgate'))!.id;
  const [lawyer] = await server.rows<{ id: number }>(
    sql`select l.id from lawyers l join users u on u.id = l.user_id where u.email = ${demoAccounts.lawyer}`,
  );
  seededLawyerId = lawyer!.id;
});
afterAll(async () => {
  await server.close();
});

describe('who may call what', () => {
  it('every signed-in role reads solicitors (the independent-advice step lists them)', async () => {
    for (const role of Object.keys(tokens) as (keyof typeof tokens)[]) {
      expect((await get('/api/solicitors', tokens[role])).statusCode, role).toBe(200);
      expect((await get(`/api/solicitors/${greenwayId}`, tokens[role])).statusCode, role).toBe(200);
    }
    expect((await get('/api/solicitors')).statusCode).toBe(401);
  });

  it('only staff create, change and delete them', async () => {
    for (const role of ['firm', 'lawyer', 'customer'] as const) {
      expect((await post('/api/solicitors', valid(), tokens[role])).statusCode, role).toBe(403);
      expect((await post('/api/solicitors/update', { solicitorId: northgateId, name: 'X' }, tokens[role])).statusCode, role).toBe(
        403,
      );
      expect((await del(`/api/solicitors/${northgateId}`, tokens[role])).statusCode, role).toBe(403);
    }
    for (const role of ['root', 'admin'] as const) {
      const created = await create(tokens[role]);
      expect(
        (await post('/api/solicitors/update', { solicitorId: created.id, name: `Renamed by ${role}` }, tokens[role])).statusCode,
      ).toBe(200);
      expect((await del(`/api/solicitors/${created.id}`, tokens[role])).statusCode).toBe(204);
    }
  });
});

describe('GET /solicitors', () => {
  it('shows each solicitor with active cases (from the independent step) and the count with any', async () => {
    const body = (await get('/api/solicitors?pageSize=100', tokens.lawyer)).json();
    const greenway = body.items.find((s: { id: number }) => s.id === greenwayId);
    // The seed's applications that reached the independent step: submitted, providerAccepted,
    // esignPrepared, customerAccepted (active) and providerRejected, customerRejected (over).
    expect(greenway).toEqual({
      id: greenwayId,
      name: 'Greenway Legal Advice',
      address: { postcode: 'SW1A 2AA', address: '14 Greycoat Place', house: '14', street: 'Greycoat Place', city: 'London' },
      contactNumber: '020 7946 0321',
      email: 'advice@greenway-legal.test',
      fee: 250,
      deliveryMethod: 'Video call',
      casesAmount: 4,
      state: 'active',
      // A lawyer reads the list to choose one; only staff change or delete a solicitor.
      abilities: { edit: false, delete: false },
    });
    // Active cases name it: deleting would be refused, so it is not offered (decision 457).
    expect((await get(`/api/solicitors/${greenwayId}`, tokens.admin)).json().abilities).toEqual({ edit: true, delete: false });
    expect((await get(`/api/solicitors/${northgateId}`, tokens.admin)).json().abilities).toEqual({ edit: true, delete: true });
    expect(body.items.find((s: { id: number }) => s.id === northgateId).casesAmount).toBe(0);
    expect(body.withActiveCases).toBe(1);
    expect(body.total).toBe(body.items.length);
  });

  it('searches (name, email, phone, address) and pages', async () => {
    const tag = `Tag${Date.now()}`;
    for (let i = 0; i < 3; i++) await create(tokens.admin, { ...valid(), name: `${tag} ${i}` });
    const page1 = (await get(`/api/solicitors?search=${tag}&pageSize=2`, tokens.admin)).json();
    const page2 = (await get(`/api/solicitors?search=${tag}&pageSize=2&page=2`, tokens.admin)).json();
    expect(page1).toMatchObject({ total: 3, page: 1, pageSize: 2, withActiveCases: 0 });
    expect(page1.items.map((s: { name: string }) => s.name)).toEqual([`${tag} 0`, `${tag} 1`]);
    expect(page2.items.map((s: { name: string }) => s.name)).toEqual([`${tag} 2`]);
    expect((await get('/api/solicitors?search=Manchester', tokens.admin)).json().items.map((s: { id: number }) => s.id)).toEqual([
      northgateId,
    ]);
    expect((await get('/api/solicitors?search=greenway-legal', tokens.admin)).json().total).toBe(1);
  });
});

describe('POST /solicitors', () => {
  it('stores the fee in pence, drops empty address parts, and answers the solicitor', async () => {
    const body = { ...valid(), address: { postcode: ' N1 9GU ', address: '', city: 'London' }, fee: 1234.5 };
    const created = await create(tokens.admin, body);
    expect(created).toMatchObject({
      name: body.name,
      address: { postcode: 'N1 9GU', city: 'London' },
      fee: 1234.5,
      casesAmount: 0,
      state: 'active',
    });
    const [row] = await server.rows<{ fee_pence: string | number; address: unknown }>(
      sql`select fee_pence, address from solicitors where id = ${created.id}`,
    );
    expect(Number(row!.fee_pence)).toBe(123450);
    expect(row!.address).toEqual({ postcode: 'N1 9GU', city: 'London' });
  });

  it('refuses bad input with field codes', async () => {
    const cases: [unknown, Record<string, string>][] = [
      [
        {},
        {
          name: 'required',
          address: 'required',
          contactNumber: 'required',
          email: 'required',
          fee: 'required',
          deliveryMethod: 'required',
        },
      ],
      [
        { ...valid(), name: ' ', address: {}, deliveryMethod: '' },
        { name: 'required', address: 'required', deliveryMethod: 'required' },
      ],
      [{ ...valid(), address: { postcode: '  ' } }, { address: 'required' }],
      [
        { ...valid(), email: 'not-an-email', contactNumber: 'call me' },
        { email: 'email', contactNumber: 'phone' },
      ],
      [{ ...valid(), contactNumber: '12345' }, { contactNumber: 'phone' }],
      [{ ...valid(), fee: 10.005 }, { fee: 'invalid' }],
      [{ ...valid(), fee: -1 }, { fee: 'positive' }],
      [{ ...valid(), fee: '250' }, { fee: 'invalid' }],
      [{ ...valid(), email: 'ADVICE@greenway-legal.test' }, { email: 'addressUsed' }],
      [{ ...valid(), address: { town: 'London' } }, { 'address.town': 'unknownField' }],
    ];
    for (const [payload, fields] of cases) {
      const res = await post('/api/solicitors', payload, tokens.admin);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toEqual({ error: 'validation', fields });
    }
  });
});

describe('POST /solicitors/update', () => {
  it('changes the fields; the email is read-only', async () => {
    const created = await create();
    const res = await post(
      '/api/solicitors/update',
      {
        solicitorId: created.id,
        name: 'Updated Advice',
        address: { house: '2' },
        contactNumber: '0161 496 0000',
        fee: 300,
        deliveryMethod: 'Post',
      },
      tokens.admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: created.id,
      name: 'Updated Advice',
      address: { house: '2' },
      contactNumber: '0161 496 0000',
      fee: 300,
      deliveryMethod: 'Post',
      email: created.email,
    });
    const withEmail = await post(
      '/api/solicitors/update',
      { solicitorId: created.id, email: 'new@solicitors.test' },
      tokens.admin,
    );
    expect(withEmail.json()).toEqual({ error: 'validation', fields: { email: 'unknownField' } });
    expect((await post('/api/solicitors/update', { solicitorId: created.id, address: {} }, tokens.admin)).json()).toEqual({
      error: 'validation',
      fields: { address: 'required' },
    });
    expect((await post('/api/solicitors/update', { solicitorId: 999999, name: 'X' }, tokens.admin)).statusCode).toBe(404);
    const audit = await server.rows<{ action: string }>(
      sql`select action from audit_events where entity_type = 'solicitor' and entity_id = ${String(created.id)} order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['created', 'updated']);
  });
});

describe('DELETE /solicitors/{id}', () => {
  it('refuses a solicitor with active cases (400 hasActiveCases)', async () => {
    const res = await del(`/api/solicitors/${greenwayId}`, tokens.admin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'hasActiveCases' });
  });

  it('soft-deletes one whose cases are over; it still reads (inactive) for the applications that chose it', async () => {
    const created = await create();
    const application = await chooseSolicitor(created.id, 'esignPrepared');
    expect((await get(`/api/solicitors/${created.id}`, tokens.admin)).json().casesAmount).toBe(1);
    expect((await get(`/api/solicitors/${created.id}`, tokens.admin)).json().abilities.delete).toBe(false);
    expect((await del(`/api/solicitors/${created.id}`, tokens.admin)).json()).toEqual({ error: 'hasActiveCases' });
    await server.db.execute(sql`update applications set status = 'customerRejected' where id = ${application}`);
    expect((await get(`/api/solicitors/${created.id}`, tokens.admin)).json().abilities.delete).toBe(true);

    expect((await del(`/api/solicitors/${created.id}`, tokens.admin)).statusCode).toBe(204);
    expect((await get(`/api/solicitors/${created.id}`, tokens.customer)).json()).toMatchObject({
      id: created.id,
      state: 'inactive',
    });
    const listed = (await get('/api/solicitors?pageSize=100', tokens.admin)).json();
    expect(listed.items.map((s: { id: number }) => s.id)).not.toContain(created.id);
    expect((await del(`/api/solicitors/${created.id}`, tokens.admin)).statusCode).toBe(404);
    expect((await post('/api/solicitors/update', { solicitorId: created.id, name: 'X' }, tokens.admin)).statusCode).toBe(404);
    const res = await get(`/api/applications/${application}`, tokens.admin);
    expect([200, 501], res.body).toContain(res.statusCode);
  });
});
