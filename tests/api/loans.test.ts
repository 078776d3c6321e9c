import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness';
import { buildDrawdown } from './factories';
import { buildLoansWorld, buildSide, type LoansWorld } from './loans-fixtures';

let server: TestServer;
let world: LoansWorld;

const get = (url: string, token: string) => server.call({ method: 'GET', url, token });
const post = (url: string, payload: object, token: string, headers: Record<string, string> = {}) =>
  server.call({ method: 'POST', url, payload, token, headers });

const loanStatus = async (id: number) =>
  (await server.rows<{ status: string }>(sql`select status from loans where id = ${id}`))[0]!.status;
const auditOf = (id: number) =>
  server.rows<{ action: string; from_state: unknown; to_state: unknown }>(
    sql`select action, from_state, to_state from audit_events where entity_type = 'loan' and entity_id = ${String(id)} order by id`,
  );
const emailsTo = (address: string) =>
  server.rows<{ subject: string; application_id: number }>(
    sql`select subject, application_id from emails where to_address = ${address} order by id`,
  );

beforeAll(async () => {
  server = await startTestServer();
  world = await buildLoansWorld(server);
  // Our loan: £50,000 offered; drawn 2,500.10 + 0.10 + 0.20 (requested, approved, paid) = 2,500.40;
  // the refused ones never count.
  const loanId = world.ours.loanId;
  await buildDrawdown(server.db, { loanId, amount: 2_500.1, status: 'paid' });
  await buildDrawdown(server.db, { loanId, amount: 0.1, status: 'providerApproved' });
  await buildDrawdown(server.db, { loanId, amount: 0.2, status: 'requested' });
  await buildDrawdown(server.db, { loanId, amount: 9_000, status: 'providerRejected' });
  await buildDrawdown(server.db, { loanId, amount: 7_000, status: 'customerRejected' });
});

afterAll(async () => {
  await server?.close();
});

describe('GET /loans/{id}', () => {
  it('shows the loan in pounds with pence, summed exactly in pence, only the drawdowns that use credit', async () => {
    const res = await get(`/api/loans/${world.ours.loanId}`, world.ours.tokens.lawyer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: world.ours.loanId,
      applicationId: world.ours.applicationId,
      amount: 50_000,
      totalDrawdowns: 2_500.4,
      creditAvailable: 47_499.6,
      state: 'open',
      clientName: world.ours.client.firstName,
      clientSurname: world.ours.client.surname,
      caseRef: 'FAM-OURS-1',
    });
  });

  it('is seen by its lawyer, its firm, its client and staff; anyone else gets 404, signed out 401', async () => {
    const id = world.ours.loanId;
    for (const token of [...Object.values(world.ours.tokens), world.staff.root, world.staff.admin])
      expect((await get(`/api/loans/${id}`, token)).statusCode).toBe(200);
    for (const token of Object.values(world.theirs.tokens)) expect((await get(`/api/loans/${id}`, token)).statusCode).toBe(404);
    expect((await server.call({ method: 'GET', url: `/api/loans/${id}` })).statusCode).toBe(401);
    expect((await get('/api/loans/99999999', world.staff.admin)).statusCode).toBe(404);
  });

  it('says what each caller may do: the lawyer requests, staff change the amount and the status, the client blocks', async () => {
    const abilities = async (token: string) => (await get(`/api/loans/${world.ours.loanId}`, token)).json().abilities;
    expect(await abilities(world.ours.tokens.lawyer)).toEqual({
      transitions: [],
      requestDrawdown: true,
      requestBalance: true,
      updateAmount: false,
      signVariation: false,
    });
    expect(await abilities(world.staff.admin)).toEqual({
      transitions: ['blocked', 'paid', 'closed'],
      requestDrawdown: false,
      requestBalance: false,
      updateAmount: true,
      signVariation: false,
    });
    expect(await abilities(world.ours.tokens.customer)).toEqual({
      transitions: ['blocked'],
      requestDrawdown: false,
      requestBalance: false,
      updateAmount: false,
      signVariation: false,
    });
    expect(await abilities(world.ours.tokens.firm)).toEqual({
      transitions: [],
      requestDrawdown: false,
      requestBalance: false,
      updateAmount: false,
      signVariation: false,
    });
  });
});

describe('GET /loans and /loans/aggregate', () => {
  it('lists each caller’s scope, newest first, with the total', async () => {
    const ids = async (token: string, query = '') => {
      const res = await get(`/api/loans?pageSize=50${query}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as { id: number }[]).map((item) => item.id);
    };
    expect(await ids(world.staff.admin)).toEqual([world.theirs.loanId, world.ours.loanId]);
    for (const party of ['lawyer', 'customer', 'firm'] as const) {
      expect(await ids(world.ours.tokens[party])).toEqual([world.ours.loanId]);
      expect(await ids(world.theirs.tokens[party])).toEqual([world.theirs.loanId]);
    }
    expect(await ids(world.staff.admin, `&firmId=${world.theirs.lawyer.firmId}`)).toEqual([world.theirs.loanId]);
    expect(await ids(world.staff.admin, '&status=blocked')).toEqual([]);
    // A filter never widens the scope.
    expect(await ids(world.ours.tokens.lawyer, `&lawyerId=${world.theirs.lawyer.id}`)).toEqual([]);
  });

  it('finds a loan by its reference, the client’s name or the case reference', async () => {
    const found = async (search: string) =>
      ((await get(`/api/loans?search=${encodeURIComponent(search)}`, world.staff.admin)).json().items as { id: number }[]).map(
        (item) => item.id,
      );
    expect(await found(`LFAMA${String(world.theirs.loanId).padStart(5, '0')}`)).toEqual([world.theirs.loanId]);
    expect(await found('fam-ours')).toEqual([world.ours.loanId]);
    expect(await found(world.theirs.client.surname)).toEqual([world.theirs.loanId]);
    expect(await found('100%_nobody')).toEqual([]);
  });

  it('pages: the page size and the total', async () => {
    const res = await get('/api/loans?page=2&pageSize=1', world.staff.admin);
    expect(res.json()).toMatchObject({ total: 2, page: 2, pageSize: 1, items: [{ id: world.ours.loanId }] });
  });

  it('totals the caller’s scope in one aggregate', async () => {
    const staff = (await get('/api/loans/aggregate', world.staff.admin)).json();
    expect(staff).toMatchObject({ loansSum: 70_000, totalDrawdowns: 2_500.4, loansCount: 2 });
    expect(staff.dateCustomerAccepted).toEqual(expect.any(String));
    expect((await get('/api/loans/aggregate', world.theirs.tokens.firm)).json()).toMatchObject({
      loansSum: 20_000,
      totalDrawdowns: 0,
      loansCount: 1,
    });
    expect((await get('/api/loans/aggregate', world.ours.tokens.customer)).json()).toMatchObject({
      loansSum: 50_000,
      loansCount: 1,
    });
  });
});

describe('POST /loans/{id}/state', () => {
  it('follows the table: the client blocks their own loan, staff unblock, set paid and close; each audited and told', async () => {
    const side = await buildSide(server, 10_000);
    const change = (state: string, token: string) => post(`/api/loans/${side.loanId}/state`, { state }, token);

    expect((await change('blocked', side.tokens.lawyer)).statusCode).toBe(403);
    expect((await change('blocked', world.ours.tokens.customer)).statusCode).toBe(404);
    const blocked = await change('blocked', side.tokens.customer);
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json()).toMatchObject({ state: 'blocked', abilities: { transitions: [] } });
    // Only the provider unblocks.
    expect((await change('open', side.tokens.customer)).statusCode).toBe(403);
    expect((await change('open', world.staff.admin)).json().state).toBe('open');
    expect((await change('paid', world.staff.admin)).json().state).toBe('paid');
    expect((await change('closed', world.staff.root)).json().state).toBe('closed');

    expect((await auditOf(side.loanId)).map((row) => [row.from_state, row.to_state])).toEqual([
      [{ status: 'open' }, { status: 'blocked' }],
      [{ status: 'blocked' }, { status: 'open' }],
      [{ status: 'open' }, { status: 'paid' }],
      [{ status: 'paid' }, { status: 'closed' }],
    ]);
    // The lawyer hears of every change; staff when the client blocked; the client when staff acted.
    expect((await emailsTo(side.lawyer.email)).length).toBe(4);
    expect((await emailsTo(side.client.email)).length).toBe(3);
    expect((await emailsTo(server.config.brand.email)).some((email) => email.application_id === side.applicationId)).toBe(true);
  });

  it('answers 409 for a change the loan’s status does not allow, and changes nothing', async () => {
    const side = await buildSide(server, 10_000);
    const change = (state: string) => post(`/api/loans/${side.loanId}/state`, { state }, world.staff.admin);
    expect((await change('open')).statusCode).toBe(409);
    expect((await change('closed')).statusCode).toBe(200);
    for (const state of ['open', 'blocked', 'paid']) {
      const res = await change(state);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('conflict');
    }
    expect(await loanStatus(side.loanId)).toBe('closed');
    expect((await auditOf(side.loanId)).length).toBe(1);
  });

  it('refuses a status that does not exist (400) and replays an Idempotency-Key with the first answer', async () => {
    const side = await buildSide(server, 10_000);
    expect((await post(`/api/loans/${side.loanId}/state`, { state: 'gone' }, world.staff.admin)).statusCode).toBe(400);
    const headers = { 'idempotency-key': 'block-once-1' };
    const first = await post(`/api/loans/${side.loanId}/state`, { state: 'blocked' }, side.tokens.customer, headers);
    const again = await post(`/api/loans/${side.loanId}/state`, { state: 'blocked' }, side.tokens.customer, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await auditOf(side.loanId)).length).toBe(1);
  });
});

describe('POST /loans/update', () => {
  it('lowers the credit offered while open, never below what has been drawn, audited', async () => {
    const side = await buildSide(server, 10_000);
    await buildDrawdown(server.db, { loanId: side.loanId, amount: 4_000.01, status: 'requested' });
    const update = (amount: number, token = world.staff.admin) =>
      post('/api/loans/update', { loanId: side.loanId, applicationId: side.applicationId, amount }, token);

    const below = await update(4_000);
    expect(below.statusCode).toBe(400);
    expect(below.json().fields).toEqual({ amount: 'belowDrawdowns' });
    expect((await update(0)).json().fields).toEqual({ amount: 'greaterThanZero' });
    expect((await update(-1)).json().fields).toEqual({ amount: 'positive' });
    expect((await update(5_000.005)).json().fields).toEqual({ amount: 'pence' });
    expect((await update(6_000, side.tokens.lawyer)).statusCode).toBe(403);
    expect((await update(6_000, side.tokens.customer)).statusCode).toBe(403);

    const ok = await update(4_000.01);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ applicationId: side.applicationId, loanId: side.loanId, amount: 4_000.01, pendingAmount: null });
    expect((await get(`/api/loans/${side.loanId}`, side.tokens.lawyer)).json()).toMatchObject({
      amount: 4_000.01,
      creditAvailable: 0,
    });
    expect((await auditOf(side.loanId)).map((row) => [row.action, row.to_state])).toEqual([
      ['amountLowered', { amountPence: 400_001, pendingAmountPence: null }],
    ]);
    // No credit left: the lawyer is no longer offered the request form.
    expect((await get(`/api/loans/${side.loanId}`, side.tokens.lawyer)).json().abilities.requestDrawdown).toBe(false);
  });

  it('refuses a loan that is not open (409 loanNotOpen) and an application that is not the loan’s (400)', async () => {
    const side = await buildSide(server, 10_000);
    expect(
      (
        await post(
          '/api/loans/update',
          { loanId: side.loanId, applicationId: world.ours.applicationId, amount: 9_000 },
          world.staff.admin,
        )
      ).statusCode,
    ).toBe(400);
    await post(`/api/loans/${side.loanId}/state`, { state: 'blocked' }, world.staff.admin);
    const res = await post('/api/loans/update', { loanId: side.loanId, amount: 9_000 }, world.staff.admin);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('loanNotOpen');
  });
});

describe('GET /loans/{id}/balance', () => {
  it('tells the provider by email for the loan’s own lawyer, audited; a few an hour at most', async () => {
    const side = await buildSide(server, 10_000);
    const ask = (token: string) => get(`/api/loans/${side.loanId}/balance`, token);
    expect((await ask(world.ours.tokens.lawyer)).statusCode).toBe(404);
    expect((await ask(world.staff.admin)).statusCode).toBe(403);
    expect((await ask(side.tokens.customer)).statusCode).toBe(403);
    const res = await ask(side.tokens.lawyer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ loanId: side.loanId, requestedAt: expect.any(String) });
    const told = (await emailsTo(server.config.brand.email)).filter((email) => email.application_id === side.applicationId);
    expect(told.map((email) => email.subject)).toEqual([expect.stringContaining('loan balance')]);
    expect((await auditOf(side.loanId)).map((row) => row.action)).toEqual(['balanceRequested']);
    expect((await ask(side.tokens.lawyer)).statusCode).toBe(200);
    expect((await ask(side.tokens.lawyer)).statusCode).toBe(200);
    expect((await ask(side.tokens.lawyer)).statusCode).toBe(429);
  });
});
