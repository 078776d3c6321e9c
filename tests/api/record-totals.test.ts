import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray, sql } from 'drizzle-orm';
import { drawdowns } from '../../src/server/db/schema';
import { creditUsingDrawdownStatuses } from '../../src/shared/rules/statuses';
import { startTestServer, type TestServer } from './harness';
import { buildApplication, buildDrawdown, buildLawyer, signInAs } from './factories';
import { api, freshEmail, personal } from './applications-fixtures';
import { buildLoansWorld, buildSide, clientDeclarations, drawdownRequest, type LoansWorld } from './loans-fixtures';

/**
 * The totals kept by triggers (docs/decisions.md, 373) stay exactly what counting every row says,
 * after each kind of change the portal makes (create, status change, amount change) and the ones it
 * never makes but a database may see (delete, truncate); and staff's lists and overviews, which read
 * them, answer the figures the rows give.
 */

let server: TestServer;
let world: LoansWorld;
let a: ReturnType<typeof api>;

const get = (url: string, token: string) => server.call({ method: 'GET', url, token });
const post = (url: string, payload: object, token: string) => server.call({ method: 'POST', url, payload, token });
const put = (url: string, payload: object, token: string) => server.call({ method: 'PUT', url, payload, token });

interface TotalRow {
  kind: string;
  status: string;
  count: number;
  amount: number;
}

/** The maintained totals, without the statuses that are down to nothing. */
const maintained = () =>
  server.rows<TotalRow>(sql`select kind, status, count::int as count, amount_pence::float8 as amount
    from record_totals where count <> 0 or amount_pence <> 0 order by kind, status`);

/** The same figures counted over every row. */
const counted = () =>
  server.rows<TotalRow>(sql`select * from (
      select 'application' as kind, status, count(*)::int as count, 0::float8 as amount from applications group by status
      union all select 'loan', status, count(*)::int, sum(amount_pence)::float8 from loans group by status
      union all select 'drawdown', status, count(*)::int, sum(amount_pence)::float8 from drawdowns group by status) t
    order by kind, status`);

async function expectExact(): Promise<void> {
  expect(await maintained()).toEqual(await counted());
  // Staff's unfiltered lists and overviews read the maintained totals: they answer what the rows say.
  const [sums] = await server.rows<{ apps: number; loans: number; drawdowns: number; offered: number; latest: Date | string }>(
    sql`select (select count(*)::int from applications) as apps, (select count(*)::int from loans) as loans,
          (select count(*)::int from drawdowns) as drawdowns, (select coalesce(sum(amount_pence), 0)::float8 from loans) as offered,
          (select max(created_at) from loans) as latest`,
  );
  const admin = world.staff.admin;
  expect((await get('/api/applications?pageSize=1', admin)).json().total).toBe(sums!.apps);
  expect((await get('/api/loans?pageSize=1', admin)).json().total).toBe(sums!.loans);
  expect((await get('/api/drawdowns?pageSize=1', admin)).json().total).toBe(sums!.drawdowns);
  const [drawn] = await server.rows<{ drawn: number; paid: number }>(
    sql`select coalesce(sum(amount_pence) filter (where ${inArray(drawdowns.status, [...creditUsingDrawdownStatuses])}), 0)::float8 as drawn,
          coalesce(sum(amount_pence) filter (where status = 'paid'), 0)::float8 as paid from drawdowns`,
  );
  const loans = (await get('/api/loans/aggregate', admin)).json();
  expect(loans).toEqual({
    loansSum: sums!.offered / 100,
    totalDrawdowns: drawn!.drawn / 100,
    loansCount: sums!.loans,
    dateCustomerAccepted: new Date(sums!.latest).toISOString(),
  });
  expect((await get('/api/drawdowns/aggregate', admin)).json()).toEqual({
    amount: drawn!.drawn / 100,
    amountPaid: drawn!.paid / 100,
    restLoansAmount: (sums!.offered - drawn!.drawn) / 100,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  a = api(server);
  world = await buildLoansWorld(server);
  await buildDrawdown(server.db, { loanId: world.ours.loanId, amount: 2_500.1, status: 'paid' });
  await buildDrawdown(server.db, { loanId: world.ours.loanId, amount: 900, status: 'providerRejected' });
});

afterAll(async () => {
  await server?.close();
});

describe('the maintained totals', () => {
  it('count every row built since the database was made, per status', async () => {
    await expectExact();
    // Filtered by status, staff's list totals read them too.
    const submitted = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from applications where status = 'approved'`,
    );
    expect((await get('/api/applications?pageSize=1&status=approved', world.staff.admin)).json().total).toBe(submitted[0]!.n);
    expect((await get('/api/drawdowns?pageSize=1&status=paid', world.staff.admin)).json().total).toBe(1);
    expect((await get('/api/loans?pageSize=1&status=blocked', world.staff.admin)).json().total).toBe(0);
  });

  it('follow a new application, its status changes, a new loan and its amount and status changes', async () => {
    const lawyer = await buildLawyer(server.db);
    const created = await a.create(await signInAs(server, lawyer), { journeyData: { personal: personal(freshEmail()) } });
    expect(created.statusCode, created.body).toBe(201);
    await expectExact();

    const submitted = await buildApplication(server.db, { lawyerId: lawyer.id, status: 'submitted' });
    const rejected = await post(
      '/api/applications/state/update',
      { applicationId: submitted.id, state: 'providerRejected' },
      world.staff.admin,
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
    await expectExact();

    const side = await buildSide(server, 10_000);
    const amount = await post(
      '/api/loans/update',
      { loanId: side.loanId, applicationId: side.applicationId, amount: 12_345.67 },
      world.staff.admin,
    );
    expect(amount.statusCode, amount.body).toBe(200);
    await expectExact();

    expect((await post(`/api/loans/${side.loanId}/state`, { state: 'blocked' }, side.tokens.customer)).statusCode).toBe(200);
    await expectExact();
    expect((await get('/api/loans?pageSize=1&status=blocked', world.staff.admin)).json().total).toBe(1);
    expect((await post(`/api/loans/${side.loanId}/state`, { state: 'open' }, world.staff.admin)).statusCode).toBe(200);
    await expectExact();
  });

  it('follow drawdowns requested, changed, moved through their statuses, and twenty requests at once', async () => {
    const side = await buildSide(server, 5_000);
    const requested = await post('/api/drawdowns', drawdownRequest(side.applicationId, { amount: 600 }), side.tokens.lawyer);
    expect(requested.statusCode, requested.body).toBe(201);
    const id = requested.json().id as number;
    await expectExact();

    expect(
      (await put(`/api/drawdowns/${id}`, drawdownRequest(side.applicationId, { amount: 750.5 }), side.tokens.lawyer)).statusCode,
    ).toBe(200);
    await expectExact();

    const change = (body: object, token: string) => post(`/api/drawdowns/${id}/state`, body, token);
    expect((await change({ state: 'providerApproved' }, world.staff.admin)).statusCode).toBe(200);
    await expectExact();
    const approved = await change({ state: 'customerApproved', clientDeclarations: clientDeclarations() }, side.tokens.customer);
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await change({ state: 'paid' }, world.staff.admin)).statusCode).toBe(200);
    await expectExact();

    const burst = await buildSide(server, 1_000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/api/drawdowns', drawdownRequest(burst.applicationId, { amount: 100.01 }), burst.tokens.lawyer),
      ),
    );
    expect(answers.filter((res) => res.statusCode === 201).length).toBe(9);
    await expectExact();
  });

  it('follow a delete and a truncate, which the portal never does but a database may see', async () => {
    const side = await buildSide(server, 3_000);
    await buildDrawdown(server.db, { loanId: side.loanId, amount: 100, status: 'requested' });
    await expectExact();
    await server.rows(sql`delete from drawdowns where loan_id = ${side.loanId}`);
    await server.rows(sql`delete from loans where id = ${side.loanId}`);
    await expectExact();
    await server.rows(sql`truncate drawdowns`);
    expect(await maintained()).toEqual(await counted());
    expect((await get('/api/drawdowns?pageSize=1', world.staff.admin)).json().total).toBe(0);
  });
});
