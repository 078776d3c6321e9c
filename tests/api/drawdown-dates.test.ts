import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ukDateFromToday } from '../../src/shared/rules/calendar-dates';
import { startTestServer, type TestServer } from './harness';
import { buildDrawdown } from './factories';
import { buildLoansWorld, buildSide, drawdownRequest, type LoansWorld, type Side } from './loans-fixtures';

// The drawdown request's dates (docs/decisions.md: 462): real dates written DD/MM/YYYY, today or
// later, checked by the server with the form's codes; requests stored before keep their free text.

let server: TestServer;
let world: LoansWorld;

const request = (side: Side, overrides: Record<string, unknown> = {}) =>
  server.call({
    method: 'POST',
    url: '/api/drawdowns',
    payload: drawdownRequest(side.applicationId, overrides),
    token: side.tokens.lawyer,
  });
const drawdownCount = async (loanId: number) =>
  Number((await server.rows<{ n: string }>(sql`select count(*) as n from drawdowns where loan_id = ${loanId}`))[0]!.n);
const storedDates = async (id: number) =>
  (
    await server.rows<{ next_hearing_date: string; final_order_date: string; expected_repayment_date: string }>(
      sql`select next_hearing_date, final_order_date, expected_repayment_date from drawdowns where id = ${id}`,
    )
  )[0]!;

/** A year well ahead, for dates whose only fault is their day. */
const ahead = Number(ukDateFromToday(0).slice(-4)) + 2;

beforeAll(async () => {
  server = await startTestServer();
  world = await buildLoansWorld(server);
});

afterAll(async () => {
  await server?.close();
});

describe('the dates of a drawdown request', () => {
  it('refuses a day not in the calendar, a past date and free text, each with its code, in one answer; nothing is stored', async () => {
    const side = await buildSide(server, 10_000);
    const res = await request(side, {
      nextHearingDate: `31/02/${ahead}`,
      finalOrderDate: '30/06/2020',
      expectedRepaymentDate: 'next spring',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'validation',
      fields: { nextHearingDate: 'noSuchDate', finalOrderDate: 'pastDate', expectedRepaymentDate: 'dateFormat' },
    });
    expect((await request(side, { nextHearingDate: ukDateFromToday(-1) })).json().fields).toEqual({
      nextHearingDate: 'pastDate',
    });
    expect((await request(side, { finalOrderDate: `${ahead}-03-14` })).json().fields).toEqual({ finalOrderDate: 'dateFormat' });
    expect((await request(side, { expectedRepaymentDate: '  ' })).json().fields).toEqual({ expectedRepaymentDate: 'required' });
    expect((await request(side, { clientExpectedRepaymentDate: 'when the house sells' })).json().fields).toEqual({
      clientExpectedRepaymentDate: 'dateFormat',
    });
    expect(await drawdownCount(side.loanId)).toBe(0);
  });

  it('takes today and later, and stores a one-digit day or month written DD/MM/YYYY', async () => {
    const side = await buildSide(server, 10_000);
    const res = await request(side, {
      nextHearingDate: ukDateFromToday(0),
      finalOrderDate: ` 1/3/${ahead} `,
      expectedRepaymentDate: `9/11/${ahead}`,
      clientExpectedRepaymentDate: '',
    });
    expect(res.statusCode, res.body).toBe(201);
    const drawdown = res.json();
    expect(drawdown.nextHearingDate).toBe(ukDateFromToday(0));
    expect(drawdown.finalOrderDate).toBe(`01/03/${ahead}`);
    expect(drawdown.expectedRepaymentDate).toBe(`09/11/${ahead}`);
    expect(drawdown.clientExpectedRepaymentDate).toBeNull();
    expect(await storedDates(drawdown.id)).toEqual({
      next_hearing_date: ukDateFromToday(0),
      final_order_date: `01/03/${ahead}`,
      expected_repayment_date: `09/11/${ahead}`,
    });
  });

  it('still reads, lists and decides a drawdown stored before with dates as free text', async () => {
    const side = world.ours;
    const old = await buildDrawdown(server.db, { loanId: side.loanId, amount: 10 });
    await server.rows(
      sql`update drawdowns set next_hearing_date = 'next spring', final_order_date = '2020', expected_repayment_date = 'when the house sells' where id = ${old.id}`,
    );
    const read = await server.call({ method: 'GET', url: `/api/drawdowns/${old.id}`, token: world.staff.admin });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      nextHearingDate: 'next spring',
      finalOrderDate: '2020',
      expectedRepaymentDate: 'when the house sells',
    });
    const list = await server.call({ method: 'GET', url: `/api/drawdowns?loanId=${side.loanId}`, token: world.staff.admin });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((item: { id: number }) => item.id)).toContain(old.id);
    // A decision on it does not check the request's dates again.
    const approve = await server.call({
      method: 'POST',
      url: `/api/drawdowns/${old.id}/state`,
      payload: { state: 'providerApproved' },
      token: world.staff.admin,
    });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(approve.json().nextHearingDate).toBe('next spring');
  });
});
