import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness';
import { buildDrawdown } from './factories';
import { buildLoansWorld, buildSide, drawdownRequest, type LoansWorld, type Side } from './loans-fixtures';

/**
 * The lawyer's change of a requested drawdown (PUT /drawdowns/{id}: who, when, the same checks as a
 * request under the loan's lock, audited, replayed by its Idempotency-Key) and the drawdowns list's
 * status filter and search (staff's queue), on both databases.
 */

let server: TestServer;
let world: LoansWorld;

const get = (url: string, token: string) => server.call({ method: 'GET', url, token });
const send = (method: 'POST' | 'PUT', url: string, payload: object, token: string, headers: Record<string, string> = {}) =>
  server.call({ method, url, payload, token, headers });
const request = async (side: Side, overrides: Record<string, unknown> = {}) => {
  const res = await send('POST', '/api/drawdowns', drawdownRequest(side.applicationId, overrides), side.tokens.lawyer);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
};
const change = (side: Side, id: number, overrides: Record<string, unknown> = {}, token = side.tokens.lawyer, headers = {}) =>
  send('PUT', `/api/drawdowns/${id}`, drawdownRequest(side.applicationId, overrides), token, headers);

const stored = async (id: number) =>
  (
    await server.rows<{ amount_pence: string; invoice_number: string; status: string }>(
      sql`select amount_pence, invoice_number, status from drawdowns where id = ${id}`,
    )
  )[0]!;
const auditOf = (id: number) =>
  server.rows<{ action: string; from_state: Record<string, unknown> | null; to_state: Record<string, unknown> | null }>(
    sql`select action, from_state, to_state from audit_events where entity_type = 'drawdown' and entity_id = ${String(id)} order by id`,
  );
const changedEmails = (applicationId: number) =>
  server.rows<{ subject: string }>(
    sql`select subject from emails where application_id = ${applicationId} and subject = 'A drawdown request was changed'`,
  );

beforeAll(async () => {
  server = await startTestServer();
  world = await buildLoansWorld(server);
});

afterAll(async () => {
  await server?.close();
});

describe('PUT /drawdowns/{id}', () => {
  it('audits each column that changed, as it was and as it became, and tells the provider; a change of nothing writes nothing', async () => {
    const side = await buildSide(server, 10_000);
    const id = await request(side, { amount: 1_500, invoiceNumber: 'INV-1' });
    const res = await change(side, id, {
      amount: 1_750.5,
      invoiceNumber: ' INV-2 ',
      materialChanges: true,
      materialChangesDetails: 'A new valuation',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ amount: 1_750.5, invoiceNumber: 'INV-2', materialChangesDetails: 'A new valuation' });
    expect(res.json().abilities).toEqual({ transitions: [], edit: true });
    const [, changed] = await auditOf(id);
    expect(changed).toEqual({
      action: 'changed',
      from_state: { amountPence: 150_000, invoiceNumber: 'INV-1', materialChanges: false, materialChangesDetails: null },
      to_state: {
        amountPence: 175_050,
        invoiceNumber: 'INV-2',
        materialChanges: true,
        materialChangesDetails: 'A new valuation',
      },
    });
    expect(await changedEmails(side.applicationId)).toHaveLength(1);

    // The same request again (the declarations come back from the database in another key order).
    const same = await change(side, id, {
      amount: 1_750.5,
      invoiceNumber: 'INV-2',
      materialChanges: true,
      materialChangesDetails: 'A new valuation',
    });
    expect(same.statusCode).toBe(200);
    expect((await auditOf(id)).map((entry) => entry.action)).toEqual(['requested', 'changed']);
    expect(await changedEmails(side.applicationId)).toHaveLength(1);
  });

  it('checks the body as a new request does, in one answer, and changes nothing when it fails', async () => {
    const side = await buildSide(server, 10_000);
    const id = await request(side, { amount: 2_000 });
    const refused = await change(side, id, { amount: 0, invoiceNumber: ' ', materialChanges: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({
      amount: 'greaterThanZero',
      invoiceNumber: 'required',
      materialChangesDetails: 'required',
    });
    expect((await change(side, id, { amount: -1 })).json().fields).toEqual({ amount: 'positive' });
    expect((await change(side, id, { amount: 3.333 })).json().fields).toEqual({ amount: 'pence' });
    // Another loan's application: the request belongs to this one.
    const moved = await change(side, id, { applicationId: world.ours.applicationId });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().fields).toEqual({ applicationId: 'invalid' });
    expect((await stored(id)).status).toBe('requested');
    expect(Number((await stored(id)).amount_pence)).toBe(200_000);
    expect((await auditOf(id)).map((entry) => entry.action)).toEqual(['requested']);
  });

  it('counts the credit without the request’s own amount, but with every other one', async () => {
    const side = await buildSide(server, 1_000);
    const first = await request(side, { amount: 300 });
    await request(side, { amount: 500 });
    // 1,000 offered, 800 drawn: the first may grow to 500 (its own 300 plus the 200 left), not beyond.
    expect((await change(side, first, { amount: 500.01 })).json().fields).toEqual({ amount: 'exceedsCredit' });
    expect((await change(side, first, { amount: 500 })).statusCode).toBe(200);
    expect((await get(`/api/loans/${side.loanId}`, side.tokens.lawyer)).json()).toMatchObject({
      totalDrawdowns: 1_000,
      creditAvailable: 0,
    });
    // A refused drawdown gives its amount back to the others.
    await buildDrawdown(server.db, { loanId: side.loanId, amount: 400, status: 'providerRejected' });
    expect((await change(side, first, { amount: 450 })).statusCode).toBe(200);
  });

  it('never lets changes made at once draw more than the credit (the loan’s row lock)', async () => {
    const side = await buildSide(server, 1_000);
    const ids = [
      await request(side, { amount: 100 }),
      await request(side, { amount: 100 }),
      await request(side, { amount: 100 }),
    ];
    // Each alone would fit (100 → 600 leaves 1,000 − 800 = 200): together only one may.
    const answers = await Promise.all(ids.map((id) => change(side, id, { amount: 600 })));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 400, 400]);
    for (const refused of answers.filter((res) => res.statusCode === 400))
      expect(refused.json().fields).toEqual({ amount: 'exceedsCredit' });
    const [drawn] = await server.rows<{ pence: string }>(
      sql`select sum(amount_pence) as pence from drawdowns where loan_id = ${side.loanId}`,
    );
    expect(Number(drawn!.pence)).toBe(80_000);
  });

  it('is the requesting lawyer’s only: another lawyer 404, every other role 403, a request not theirs 403', async () => {
    const side = await buildSide(server, 10_000);
    const id = await request(side);
    expect((await change(side, id, { amount: 10 }, world.ours.tokens.lawyer)).statusCode).toBe(404);
    for (const token of [side.tokens.customer, side.tokens.firm, world.staff.admin, world.staff.root])
      expect((await change(side, id, { amount: 10 }, token)).statusCode).toBe(403);
    // A request on their loan that someone else made (not recorded as theirs) is not theirs to change.
    const other = await buildDrawdown(server.db, { loanId: side.loanId, amount: 50, requestedBy: side.firmAdmin.userId });
    expect((await get(`/api/drawdowns/${other.id}`, side.tokens.lawyer)).json().abilities.edit).toBe(false);
    expect((await change(side, other.id, { amount: 10 })).statusCode).toBe(403);
    expect((await get(`/api/drawdowns/${id}`, side.tokens.lawyer)).json().abilities.edit).toBe(true);
    expect((await get(`/api/drawdowns/${id}`, world.staff.admin)).json().abilities.edit).toBe(false);
    expect((await auditOf(id)).map((entry) => entry.action)).toEqual(['requested']);
  });

  it('refuses while the loan is not open (409 loanNotOpen) and once the request moved on (409 conflict)', async () => {
    const side = await buildSide(server, 10_000);
    const id = await request(side);
    await send('POST', `/api/loans/${side.loanId}/state`, { state: 'blocked' }, world.staff.admin);
    const held = await change(side, id, { amount: 10 });
    expect(held.statusCode).toBe(409);
    expect(held.json().error).toBe('loanNotOpen');
    expect((await get(`/api/drawdowns/${id}`, side.tokens.lawyer)).json().abilities.edit).toBe(false);
    await send('POST', `/api/loans/${side.loanId}/state`, { state: 'open' }, world.staff.admin);
    expect((await change(side, id, { amount: 10 })).statusCode).toBe(200);
    await send('POST', `/api/drawdowns/${id}/state`, { state: 'providerRejected' }, world.staff.admin);
    const late = await change(side, id, { amount: 20 });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('conflict');
    expect(Number((await stored(id)).amount_pence)).toBe(1_000);
  });

  it('answers a replay of its Idempotency-Key with the first answer, once; the key with another body is refused', async () => {
    const side = await buildSide(server, 10_000);
    const id = await request(side, { amount: 100 });
    const headers = { 'idempotency-key': `edit-${id}` };
    const first = await change(side, id, { amount: 250 }, side.tokens.lawyer, headers);
    // Meanwhile another change goes through: the replay still answers what the first one did.
    expect((await change(side, id, { amount: 300 })).statusCode).toBe(200);
    const again = await change(side, id, { amount: 250 }, side.tokens.lawyer, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json().amount).toBe(250);
    expect(Number((await stored(id)).amount_pence)).toBe(30_000);
    expect((await auditOf(id)).map((entry) => entry.action)).toEqual(['requested', 'changed', 'changed']);
    const reused = await change(side, id, { amount: 260 }, side.tokens.lawyer, headers);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe('idempotencyKeyReused');
  });
});

describe('GET /drawdowns with status and search', () => {
  it('filters by status and finds a case by its reference or its client’s names, within the caller’s scope', async () => {
    const side = await buildSide(server, 50_000, `QUEUE-${Date.now()}`);
    const caseRef = (
      await server.rows<{ case_ref: string }>(sql`select case_ref from applications where id = ${side.applicationId}`)
    )[0]!.case_ref;
    const waiting = await request(side, { amount: 10 });
    const approved = await request(side, { amount: 20 });
    await send('POST', `/api/drawdowns/${approved}/state`, { state: 'providerApproved' }, world.staff.admin);
    const list = async (query: string, token = world.staff.admin) => {
      const res = await get(`/api/drawdowns?${query}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: { id: number; status: string }[]; total: number };
    };

    const byCase = await list(`search=${encodeURIComponent(caseRef.toLowerCase())}`);
    expect(byCase.items.map((item) => item.id)).toEqual([approved, waiting]);
    expect(byCase.total).toBe(2);
    const queue = await list(`status=requested&search=${encodeURIComponent(caseRef)}`);
    expect(queue.items.map((item) => item.id)).toEqual([waiting]);
    expect(queue.total).toBe(1);
    // Every word of the client's names (as the applications and loans lists search).
    const byName = await list(
      `status=providerApproved&search=${encodeURIComponent(`${side.client.firstName} ${side.client.surname}`)}`,
    );
    expect(byName.items.map((item) => item.id)).toEqual([approved]);
    expect((await list(`search=${encodeURIComponent(`${side.client.surname} nobody`)}`)).total).toBe(0);
    // A LIKE wildcard is text, not a pattern.
    expect((await list('search=%25')).total).toBe(0);

    // Within the caller's scope: their own lawyer and firm find it, another lawyer does not.
    expect((await list(`status=requested&search=${encodeURIComponent(caseRef)}`, side.tokens.lawyer)).total).toBe(1);
    expect((await list(`status=requested&search=${encodeURIComponent(caseRef)}`, side.tokens.firm)).total).toBe(1);
    expect((await list(`search=${encodeURIComponent(caseRef)}`, world.ours.tokens.lawyer)).total).toBe(0);

    // Not a status: refused by the contract.
    expect((await get('/api/drawdowns?status=approved', world.staff.admin)).statusCode).toBe(400);
  });

  it('gives staff filtering by status alone the kept totals, and counts rows for every other filter, alike', async () => {
    const side = await buildSide(server, 50_000);
    await buildDrawdown(server.db, { loanId: side.loanId, amount: 1, status: 'paid' });
    await buildDrawdown(server.db, { loanId: side.loanId, amount: 2, status: 'customerRejected' });
    const counted = async (where: ReturnType<typeof sql>) =>
      Number((await server.rows<{ n: string }>(sql`select count(*) as n from drawdowns d where ${where}`))[0]!.n);
    for (const status of ['requested', 'providerApproved', 'paid', 'customerRejected']) {
      const res = await get(`/api/drawdowns?pageSize=1&status=${status}`, world.staff.admin);
      expect(res.json().total, status).toBe(await counted(sql`d.status = ${status}`));
      expect(res.json().items.every((item: { status: string }) => item.status === status)).toBe(true);
    }
    const mine = await get(`/api/drawdowns?status=paid&loanId=${side.loanId}`, world.staff.admin);
    expect(mine.json().total).toBe(1);
    expect((await get(`/api/drawdowns?status=paid`, side.tokens.lawyer)).json().total).toBe(1);
  });
});
