import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness';
import { buildDrawdown } from './factories';
import { buildLoansWorld, buildSide, clientDeclarations, drawdownRequest, type LoansWorld, type Side } from './loans-fixtures';

let server: TestServer;
let world: LoansWorld;

const get = (url: string, token: string) => server.call({ method: 'GET', url, token });
const send = (method: 'POST' | 'PUT', url: string, payload: object, token: string, headers: Record<string, string> = {}) =>
  server.call({ method, url, payload, token, headers: { 'user-agent': 'Phone test browser', ...headers } });
const request = (side: Side, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  send('POST', '/api/drawdowns', drawdownRequest(side.applicationId, overrides), side.tokens.lawyer, headers);
const changeState = (id: number, body: object, token: string) => send('POST', `/api/drawdowns/${id}/state`, body, token);

const drawdownRow = async (id: number) =>
  (
    await server.rows<{
      status: string;
      amount_pence: string;
      client_approved_at: Date | null;
      client_approval_device: string | null;
    }>(sql`select status, amount_pence, client_approved_at, client_approval_device from drawdowns where id = ${id}`)
  )[0]!;
const drawdownCount = async (loanId: number) =>
  Number((await server.rows<{ n: string }>(sql`select count(*) as n from drawdowns where loan_id = ${loanId}`))[0]!.n);
const auditOf = (id: number) =>
  server.rows<{ action: string; from_state: unknown; to_state: Record<string, unknown> }>(
    sql`select action, from_state, to_state from audit_events where entity_type = 'drawdown' and entity_id = ${String(id)} order by id`,
  );
const emailsAbout = (applicationId: number) =>
  server.rows<{ to_address: string; subject: string }>(
    sql`select to_address, subject from emails where application_id = ${applicationId} order by id`,
  );

beforeAll(async () => {
  server = await startTestServer();
  world = await buildLoansWorld(server);
});

afterAll(async () => {
  await server?.close();
});

describe('POST /drawdowns', () => {
  it('records the lawyer’s request (201) against the loan of the application, tells the provider, audited', async () => {
    const side = await buildSide(server, 10_000);
    const res = await request(side, { amount: 2_500.1, materialChanges: true, materialChangesDetails: '  New expert report  ' });
    expect(res.statusCode, res.body).toBe(201);
    const drawdown = res.json();
    expect(drawdown).toMatchObject({
      loanId: side.loanId,
      applicationId: side.applicationId,
      status: 'requested',
      amount: 2_500.1,
      loanAmount: 10_000,
      totalDrawdownsAmount: 2_500.1,
      materialChanges: true,
      materialChangesDetails: 'New expert report',
      clientApprovedAt: null,
      abilities: { transitions: [], edit: true },
    });
    expect(Number((await drawdownRow(drawdown.id)).amount_pence)).toBe(250_010);
    expect((await auditOf(drawdown.id)).map((row) => row.action)).toEqual(['requested']);
    expect((await emailsAbout(side.applicationId)).map((email) => email.to_address)).toEqual([server.config.brand.email]);
  });

  it('checks every field with the spec’s codes, in one answer', async () => {
    const side = await buildSide(server, 10_000);
    const res = await request(side, {
      amount: 0,
      invoiceNumber: '  ',
      materialChanges: true,
      lawyerDeclarations: { ...drawdownRequest(0).lawyerDeclarations, settlementSufficient: false },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      amount: 'greaterThanZero',
      invoiceNumber: 'required',
      materialChangesDetails: 'required',
    });
    expect((await request(side, { amount: -5 })).json().fields).toEqual({ amount: 'positive' });
    expect((await request(side, { amount: 10.001 })).json().fields).toEqual({ amount: 'pence' });
    expect((await request(side, { amount: 10_000.01 })).json().fields).toEqual({ amount: 'exceedsCredit' });
    // A statement left out is refused by the contract.
    const { obligationsCompiled: _left, ...six } = drawdownRequest(0).lawyerDeclarations;
    expect((await request(side, { lawyerDeclarations: six })).statusCode).toBe(400);
    expect(await drawdownCount(side.loanId)).toBe(0);
  });

  it('keeps a False statement’s details, and only those', async () => {
    const side = await buildSide(server, 10_000);
    const res = await request(side, {
      lawyerDeclarations: {
        ...drawdownRequest(0).lawyerDeclarations,
        settlementSufficient: false,
        settlementSufficientDetails: ' Settlement may be lower ',
        solicitorNotifiedDetails: 'ignored: answered True',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().lawyerDeclarations).toMatchObject({
      settlementSufficient: false,
      settlementSufficientDetails: 'Settlement may be lower',
    });
    expect(res.json().lawyerDeclarations.solicitorNotifiedDetails).toBeUndefined();
  });

  it('is the loan’s own lawyer’s: others 404 (out of scope) or 403 (not a lawyer)', async () => {
    const side = await buildSide(server, 10_000);
    const body = drawdownRequest(side.applicationId);
    expect((await send('POST', '/api/drawdowns', body, world.ours.tokens.lawyer)).statusCode).toBe(404);
    for (const token of [side.tokens.customer, side.tokens.firm, world.staff.admin])
      expect((await send('POST', '/api/drawdowns', body, token)).statusCode).toBe(403);
    expect(await drawdownCount(side.loanId)).toBe(0);
  });

  it('refuses a blocked, paid or closed loan (409 loanNotOpen)', async () => {
    for (const state of ['blocked', 'paid', 'closed']) {
      const side = await buildSide(server, 10_000);
      await send('POST', `/api/loans/${side.loanId}/state`, { state }, world.staff.admin);
      const res = await request(side);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('loanNotOpen');
      expect(await drawdownCount(side.loanId)).toBe(0);
    }
  });

  it('answers a replay of its Idempotency-Key with the first answer, and makes one drawdown', async () => {
    const side = await buildSide(server, 10_000);
    const headers = { 'idempotency-key': 'court-request-1' };
    const first = await request(side, {}, headers);
    const again = await request(side, {}, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    expect(await drawdownCount(side.loanId)).toBe(1);
  });

  it('never draws more than the credit, even with twenty requests at once', async () => {
    const side = await buildSide(server, 1_000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => request(side, { amount: 100.01 })));
    const codes = answers.map((res) => res.statusCode);
    // 9 × 100.01 = 900.09 fits in 1,000; a tenth would be 1,000.10.
    expect(codes.filter((code) => code === 201).length).toBe(9);
    expect(codes.filter((code) => code === 400).length).toBe(11);
    for (const refused of answers.filter((res) => res.statusCode === 400))
      expect(refused.json().fields).toEqual({ amount: 'exceedsCredit' });
    const [drawn] = await server.rows<{ pence: string }>(
      sql`select sum(amount_pence) as pence from drawdowns where loan_id = ${side.loanId}`,
    );
    expect(Number(drawn!.pence)).toBe(90_009);
    expect((await get(`/api/loans/${side.loanId}`, side.tokens.lawyer)).json()).toMatchObject({
      totalDrawdowns: 900.09,
      creditAvailable: 99.91,
    });
  });
});

describe('the drawdown’s lifecycle', () => {
  it('staff approve, the client approves with the five declarations (their signature), staff pay; everyone told', async () => {
    const side = await buildSide(server, 10_000);
    const id = (await request(side, { amount: 1_234.56 })).json().id as number;
    const abilities = async (token: string) => (await get(`/api/drawdowns/${id}`, token)).json().abilities.transitions;
    expect(await abilities(world.staff.admin)).toEqual(['providerApproved', 'providerRejected']);
    expect(await abilities(side.tokens.customer)).toEqual([]);

    expect((await changeState(id, { state: 'providerApproved' }, world.staff.admin)).json().status).toBe('providerApproved');
    expect(await abilities(side.tokens.customer)).toEqual(['customerApproved', 'customerRejected']);
    expect(await abilities(side.tokens.lawyer)).toEqual([]);

    const declined = await changeState(
      id,
      { state: 'customerApproved', clientDeclarations: clientDeclarations({ compliedWithTNC: false }) },
      side.tokens.customer,
    );
    expect(declined.statusCode).toBe(400);
    expect(declined.json().fields).toEqual({ 'clientDeclarations.compliedWithTNC': 'notAgreed' });
    const missing = await changeState(id, { state: 'customerApproved' }, side.tokens.customer);
    expect(Object.values(missing.json().fields)).toEqual(Array(5).fill('required'));

    const approved = await changeState(
      id,
      { state: 'customerApproved', clientDeclarations: clientDeclarations() },
      side.tokens.customer,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'customerApproved',
      clientDeclarations: clientDeclarations(),
      clientApprovedAt: expect.any(String),
    });
    const row = await drawdownRow(id);
    expect(row.client_approval_device).toBe('Phone test browser');
    const signed = (await auditOf(id)).at(-1)!;
    expect(signed.to_state).toMatchObject({
      status: 'customerApproved',
      signature: {
        declarations: clientDeclarations(),
        device: 'Phone test browser',
        address: expect.any(String),
        at: expect.any(String),
      },
    });

    expect(await abilities(world.staff.admin)).toEqual(['paid']);
    expect((await changeState(id, { state: 'paid' }, world.staff.root)).json().status).toBe('paid');
    expect((await auditOf(id)).map((entry) => [entry.action, (entry.to_state as { status: string }).status])).toEqual([
      ['requested', 'requested'],
      ['statusChanged', 'providerApproved'],
      ['statusChanged', 'customerApproved'],
      ['statusChanged', 'paid'],
    ]);

    const mail = await emailsAbout(side.applicationId);
    const to = (address: string) => mail.filter((email) => email.to_address === address).length;
    expect(to(side.lawyer.email)).toBe(3); // provider approved, client approved, paid
    expect(to(side.client.email)).toBe(2); // their turn, paid
    expect(to(server.config.brand.email)).toBe(2); // requested, client approved
  });

  it('refuses a move the statuses do not allow (409 conflict) and a caller who may never make it (403/404); nothing changes', async () => {
    const side = await buildSide(server, 10_000);
    const id = (await request(side)).json().id as number;
    expect((await changeState(id, { state: 'paid' }, world.staff.admin)).statusCode).toBe(409);
    expect(
      (await changeState(id, { state: 'customerApproved', clientDeclarations: clientDeclarations() }, side.tokens.customer))
        .statusCode,
    ).toBe(409);
    expect((await changeState(id, { state: 'providerApproved' }, side.tokens.lawyer)).statusCode).toBe(403);
    expect((await changeState(id, { state: 'providerApproved' }, side.tokens.firm)).statusCode).toBe(403);
    expect((await changeState(id, { state: 'providerApproved' }, world.ours.tokens.customer)).statusCode).toBe(404);
    expect((await changeState(id, { state: 'requested' }, world.staff.admin)).statusCode).toBe(403);
    expect(
      (await changeState(id, { state: 'providerApproved', clientDeclarations: clientDeclarations() }, world.staff.admin)).json()
        .fields,
    ).toEqual({
      clientDeclarations: 'unknownField',
    });
    expect((await drawdownRow(id)).status).toBe('requested');
    expect((await changeState(id, { state: 'providerRejected' }, world.staff.admin)).statusCode).toBe(200);
    const again = await changeState(id, { state: 'providerApproved' }, world.staff.admin);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('conflict');
    expect((await auditOf(id)).length).toBe(2);
    // A refused drawdown no longer uses the credit.
    expect((await get(`/api/loans/${side.loanId}`, side.tokens.lawyer)).json().creditAvailable).toBe(10_000);
  });

  it('holds the money while the loan is blocked: no approval or payment (409 loanNotOpen), rejections still possible', async () => {
    const side = await buildSide(server, 10_000);
    const first = (await request(side)).json().id as number;
    const second = (await request(side)).json().id as number;
    await send('POST', `/api/loans/${side.loanId}/state`, { state: 'blocked' }, side.tokens.customer);
    expect((await get(`/api/drawdowns/${first}`, world.staff.admin)).json().abilities.transitions).toEqual(['providerRejected']);
    const held = await changeState(first, { state: 'providerApproved' }, world.staff.admin);
    expect(held.statusCode).toBe(409);
    expect(held.json().error).toBe('loanNotOpen');
    expect((await changeState(second, { state: 'providerRejected' }, world.staff.admin)).statusCode).toBe(200);
  });
});

describe('PUT /drawdowns/{id}', () => {
  it('lets the lawyer change a request while it is requested, its own amount not counted twice', async () => {
    const side = await buildSide(server, 1_000);
    const id = (await request(side, { amount: 600 })).json().id as number;
    const change = (overrides: Record<string, unknown>, token = side.tokens.lawyer) =>
      send('PUT', `/api/drawdowns/${id}`, drawdownRequest(side.applicationId, overrides), token);
    const changed = await change({ amount: 1_000, invoiceNumber: 'INV-2042' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ amount: 1_000, invoiceNumber: 'INV-2042', totalDrawdownsAmount: 1_000 });
    expect((await change({ amount: 1_000.01 })).json().fields).toEqual({ amount: 'exceedsCredit' });
    expect((await change({ amount: 10 }, world.ours.tokens.lawyer)).statusCode).toBe(404);
    expect((await change({ amount: 10 }, side.tokens.customer)).statusCode).toBe(403);
    await changeState(id, { state: 'providerApproved' }, world.staff.admin);
    expect((await change({ amount: 10 })).statusCode).toBe(409);
    expect((await auditOf(id)).map((entry) => entry.action)).toEqual(['requested', 'changed', 'statusChanged']);
  });
});

describe('GET /drawdowns, /drawdowns/{id} and /drawdowns/aggregate', () => {
  it('shows each caller their scope only, one loan’s with loanId, and the overview in exact pence', async () => {
    const side = await buildSide(server, 5_000, 'FAM-LIST');
    await buildDrawdown(server.db, { loanId: side.loanId, amount: 0.1, status: 'paid' });
    await buildDrawdown(server.db, { loanId: side.loanId, amount: 0.2, status: 'customerApproved' });
    await buildDrawdown(server.db, { loanId: side.loanId, amount: 999, status: 'providerRejected' });
    const mine = await get(`/api/drawdowns?loanId=${side.loanId}`, side.tokens.customer);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ total: 3, page: 1 });
    expect(mine.json().items[0]).toMatchObject({ caseRef: 'FAM-LIST', loanAmount: 5_000, totalDrawdownsAmount: 0.3 });
    expect((await get(`/api/drawdowns?loanId=${side.loanId}`, world.ours.tokens.lawyer)).json().total).toBe(0);
    const one = mine.json().items[0].id as number;
    expect((await get(`/api/drawdowns/${one}`, world.ours.tokens.firm)).statusCode).toBe(404);
    expect((await get(`/api/drawdowns/${one}`, side.tokens.firm)).statusCode).toBe(200);

    const overview = (await get(`/api/drawdowns/aggregate?loanId=${side.loanId}`, side.tokens.lawyer)).json();
    expect(overview).toEqual({ amount: 0.3, amountPaid: 0.1, restLoansAmount: 4_999.7 });
    expect((await get(`/api/drawdowns/aggregate?loanId=${side.loanId}`, world.ours.tokens.firm)).json()).toEqual({
      amount: 0,
      amountPaid: 0,
      restLoansAmount: 0,
    });
    const everything = (await get('/api/drawdowns?pageSize=100', world.staff.admin)).json();
    expect(everything.total).toBeGreaterThanOrEqual(3);
  });
});
