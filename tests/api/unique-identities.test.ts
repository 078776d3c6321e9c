import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { validPersonal } from '../fixtures/journeys';
import { buildLawyer, buildUser, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
let admin: string;
let lawyer: string;
let firmId: number;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAs(server, await buildUser(server.db, { role: 'admin' }));
  const ownLawyer = await buildLawyer(server.db);
  lawyer = await signInAs(server, ownLawyer);
  firmId = ownLawyer.firmId;
});
afterAll(async () => {
  await server.close();
});

const PARALLEL = 20;

/** Fires the same create PARALLEL times at once: exactly one is made, every other is the field's 400. */
async function race(url: string, token: string, body: (i: number) => object, fields: Record<string, string>) {
  const answers = await Promise.all(
    Array.from({ length: PARALLEL }, (_, i) => server.call({ method: 'POST', url, token, payload: body(i) })),
  );
  const statuses = answers.map((res) => res.statusCode);
  expect(
    statuses.filter((s) => s === 201),
    statuses.join(' '),
  ).toHaveLength(1);
  expect(
    statuses.filter((s) => s === 400),
    statuses.join(' '),
  ).toHaveLength(PARALLEL - 1);
  for (const res of answers.filter((r) => r.statusCode === 400)) expect(res.json()).toEqual({ error: 'validation', fields });
}

describe('identities stay unique under parallel creates', () => {
  it('a solicitor email among live solicitors (in any case)', async () => {
    const email = 'race.solicitor@solicitors.test';
    await race(
      '/api/solicitors',
      admin,
      (i) => ({
        name: `Race ${i}`,
        address: { postcode: 'EC1A 1BB', street: 'King Street' },
        contactNumber: '020 7946 0999',
        email,
        fee: 250,
        deliveryMethod: 'Phone',
      }),
      { email: 'addressUsed' },
    );
    const rows = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from solicitors where lower(email) = ${email} and deleted_at is null`,
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('a live solicitor email is refused by the database itself, whatever the case', async () => {
    const insert = (email: string) =>
      server.rows(sql`insert into solicitors (name, address, contact_number, email, fee_pence, delivery_method)
        values ('Direct', '{}'::jsonb, '0', ${email}, 1, 'Phone') returning id`);
    await insert('direct@solicitors.test');
    await expect(insert('Direct@Solicitors.test')).rejects.toThrow();
    await server.rows(sql`update solicitors set deleted_at = now() where email = 'direct@solicitors.test'`);
    await expect(insert('DIRECT@solicitors.test')).resolves.toHaveLength(1);
  });

  it("a lawyer's login", async () => {
    await race('/api/lawyers', admin, () => ({ firmId, firstName: 'Race', surname: 'Lawyer', login: 'race.lawyer@firms.test' }), {
      login: 'login',
    });
  });

  it("a firm admin's login", async () => {
    await race(
      '/api/firms',
      admin,
      (i) => ({ firmName: `Race ${i} LLP`, firstName: 'Race', surname: 'Admin', login: 'race.admin@firms.test' }),
      { login: 'login' },
    );
    const rows = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from firms f where f.name like 'Race % LLP' and f.deleted_at is null`,
    );
    expect(rows[0]!.n).toBe(1);
  });

  it("a client's login: one account, however many applications race for it (decision 344)", async () => {
    const email = 'race.client@example.test';
    const create = (token: string) =>
      server.call({
        method: 'POST',
        url: '/api/applications/create',
        token,
        payload: { journeyData: { personal: validPersonal(email) } },
      });
    // One lawyer: one create makes the account; the others either go on it as that client's
    // application or, when they raced the first one's transaction, are refused as taken (never a
    // second account); a create after it goes on it.
    const own = await Promise.all(Array.from({ length: PARALLEL }, () => create(lawyer)));
    const statuses = own.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 201).length, statuses.join(' ')).toBeGreaterThanOrEqual(1);
    for (const res of own.filter((r) => r.statusCode !== 201))
      expect(res.json()).toEqual({ error: 'validation', fields: { login: 'login' } });
    const accounts = await server.rows<{ n: number }>(sql`select count(*)::int as n from users where lower(email) = ${email}`);
    expect(accounts[0]!.n).toBe(1);
    expect((await create(lawyer)).statusCode).toBe(201);
    // Another lawyer's creates for the same address are refused with the spec's words, every one.
    const other = await signInAs(server, await buildLawyer(server.db));
    const refused = await Promise.all(Array.from({ length: 5 }, () => create(other)));
    for (const res of refused) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'validation', fields: { login: 'login' } });
    }
  });
});
