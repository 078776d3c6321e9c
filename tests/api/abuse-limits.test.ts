import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { issueToken } from '../../src/server/services/accounts/account-record';
import {
  DRAWDOWN_REQUESTS_PER_LOAN,
  DRAWDOWN_REQUESTS_PER_REQUESTER,
  LINK_CALLS_PER_ADDRESS,
  LINK_CALLS_PER_LINK,
} from '../../src/shared/rules/rate-limits';
import { MONEY_MAX_POUNDS } from '../../src/shared/rules/money';
import { api as applicationsApi } from './applications-fixtures';
import { buildSigningCase, prepareAndNotify, signingCalls } from './esign-fixtures';
import { buildApplication, buildLawyer, buildLoan, buildUser, signInAs, type BuiltUser } from './factories';
import { startTestServer, type TestServer } from './harness';
import { buildSide, drawdownRequest } from './loans-fixtures';

// The limits where abuse is cheap (docs/decisions.md 550-553): each refusal is 429 with
// Retry-After and changes nothing; every number a request carries has bounds, answered with 400.

let server: TestServer;
let root: string;

beforeAll(async () => {
  server = await startTestServer();
  root = await signInAs(server, await buildUser(server.db, { role: 'root' }));
});
afterAll(async () => {
  await server?.close();
});

const WINDOW_S = 15 * 60;
const DAY_S = 24 * 60 * 60;

/** A 429 as every limit answers it: the code, and the wait in the header and the body. */
function expectTooMany(res: LightMyRequestResponse, windowSeconds: number): void {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toMatchObject({ error: 'tooManyAttempts' });
  const wait = Number(res.headers['retry-after']);
  expect(wait).toBeGreaterThan(windowSeconds - 60);
  expect(wait).toBeLessThanOrEqual(windowSeconds);
  expect(res.json().retryAfter).toBe(wait);
}

const count = async (table: string, where = sql`true`) =>
  (await server.rows<{ n: number }>(sql`select count(*)::int as n from ${sql.raw(table)} where ${where}`))[0]!.n;

/** A link's own counter, as the limit keys it (by the token's hash). */
const linkKey = (token: string) => `link:token:${createHash('sha256').update(token).digest('hex')}`;
/** A counter full from now on, as if that many calls had just been let through. */
const fillCounter = (key: string, max: number) =>
  server.rows(sql`insert into rate_limits (key, window_started_at, count) values (${key}, now(), ${max})
    on conflict (key) do update set window_started_at = now(), count = ${max}`);

const from = (address: string) => ({ remoteAddress: address });
const validateSignUp = (uuid: string, address: string) =>
  server.call({ method: 'POST', url: '/api/users/sign-up/validate', payload: { uuid }, ...from(address) });
const completeSignUp = (body: { uuid: string; login: string; password: string }, address: string) =>
  server.call({ method: 'POST', url: '/api/users/sign-up/complete', payload: body, ...from(address) });
const validateReset = (token: string, address: string) =>
  server.call({ method: 'POST', url: '/api/users/reset/validate', payload: { token }, ...from(address) });
const updatePassword = (body: { token: string; login: string; password: string }, address: string) =>
  server.call({ method: 'POST', url: '/api/users/reset/update', payload: body, ...from(address) });

async function invited(): Promise<{ user: BuiltUser; token: string }> {
  const user = await buildUser(server.db, { role: 'customer', status: 'invited', passwordHash: null });
  return { user, token: await issueToken(server.db, user.userId, 'invitation', 60 * 60 * 1000) };
}

describe('calls that carry a link’s token', () => {
  it(`a sign-up link answers ${LINK_CALLS_PER_LINK} calls a window from any addresses, then 429 everywhere, and completing it then changes nothing`, async () => {
    const { user, token } = await invited();
    for (let i = 0; i < LINK_CALLS_PER_LINK; i++) {
      const res = await validateSignUp(token, `198.51.100.${i + 1}`);
      expect(res.statusCode, `call ${i + 1}: ${res.body}`).toBe(200);
    }
    const sessions = await count('sessions');
    const audits = await count('audit_events');
    const sibling = await server.sibling();
    expectTooMany(await validateSignUp(token, '198.51.100.200'), WINDOW_S);
    expectTooMany(
      await sibling.call({
        method: 'POST',
        url: '/api/users/sign-up/validate',
        payload: { uuid: token },
        remoteAddress: '192.0.2.7',
      }),
      WINDOW_S,
    );
    expectTooMany(await completeSignUp({ uuid: token, login: user.email, password: 'Chosen-pass-1' }, '192.0.2.8'), WINDOW_S);
    // Nothing was written: the account is still invited, no session, no audit row.
    const [row] = await server.rows<{ status: string }>(sql`select status from users where id = ${user.userId}`);
    expect(row!.status).toBe('invited');
    expect(await count('sessions')).toBe(sessions);
    expect(await count('audit_events')).toBe(audits);
  });

  it(`one address is refused after ${LINK_CALLS_PER_ADDRESS} calls over any links, while the link still works for its holder elsewhere`, async () => {
    const reset = await buildUser(server.db, { role: 'customer' });
    const token = await issueToken(server.db, reset.userId, 'reset', 60 * 60 * 1000);
    const attacker = '203.0.113.9';
    const countersBefore = await count('rate_limits');
    for (let i = 0; i < LINK_CALLS_PER_ADDRESS; i++) {
      const res = await validateReset(randomUUID(), attacker);
      expect(res.statusCode, `guess ${i + 1}: ${res.body}`).toBe(400);
    }
    // Past the address's limit, made-up links add no counters of their own.
    const countersFull = await count('rate_limits');
    expect(countersFull - countersBefore).toBe(LINK_CALLS_PER_ADDRESS + 1);
    expectTooMany(await validateReset(randomUUID(), attacker), WINDOW_S);
    expectTooMany(await validateReset(token, attacker), WINDOW_S);
    expect(await count('rate_limits')).toBe(countersFull);
    // The real holder, from their own address, is not locked out by the stranger.
    const holder = '198.51.100.77';
    expect((await validateReset(token, holder)).json()).toEqual({ login: reset.email });
    const res = await updatePassword({ token, login: reset.email, password: 'Renewed-pass-1' }, holder);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('calls refused for a used-up link still spend their address: one address cannot hammer a link for free', async () => {
    const reset = await buildUser(server.db, { role: 'customer' });
    const token = await issueToken(server.db, reset.userId, 'reset', 60 * 60 * 1000);
    await fillCounter(linkKey(token), LINK_CALLS_PER_LINK);
    const hammer = '203.0.113.77';
    for (let i = 0; i < LINK_CALLS_PER_ADDRESS; i++) expectTooMany(await validateReset(token, hammer), WINDOW_S);
    // The address is spent as well: a fresh made-up link from it is refused before any lookup.
    expectTooMany(await validateReset(randomUUID(), hammer), WINDOW_S);
    const [row] = await server.rows<{ count: number }>(
      sql`select count from rate_limits where key like ${'link:address:%'} and count >= ${LINK_CALLS_PER_ADDRESS} order by window_started_at desc limit 1`,
    );
    expect(row?.count).toBe(LINK_CALLS_PER_ADDRESS);
  });

  it('setting a password through a link that is over its limit changes nothing', async () => {
    const reset = await buildUser(server.db, { role: 'customer' });
    const token = await issueToken(server.db, reset.userId, 'reset', 60 * 60 * 1000);
    await fillCounter(linkKey(token), LINK_CALLS_PER_LINK);
    const [before] = await server.rows<{ password_hash: string }>(
      sql`select password_hash from users where id = ${reset.userId}`,
    );
    const audits = await count('audit_events');
    expectTooMany(await validateReset(token, '198.51.100.90'), WINDOW_S);
    expectTooMany(await updatePassword({ token, login: reset.email, password: 'Renewed-pass-1' }, '198.51.100.91'), WINDOW_S);
    const [after] = await server.rows<{ password_hash: string }>(sql`select password_hash from users where id = ${reset.userId}`);
    expect(after!.password_hash).toBe(before!.password_hash);
    expect(await count('audit_events')).toBe(audits);
    expect(await count('user_tokens', sql`user_id = ${reset.userId} and used_at is null`)).toBe(1);
  });

  it('the signing page, its code and its sign answer 429 for a link over its limit, and record nothing', async () => {
    const c = await buildSigningCase(server);
    await prepareAndNotify(server, c.applicationId, root);
    const calls = signingCalls(server);
    const token = await calls.openSigning(c);
    const page = await server.call({ method: 'GET', url: `/api/esign/${token}`, token: c.client });
    expect(page.statusCode, page.body).toBe(200);
    const envelopeId = page.json().envelopeId as string;
    await fillCounter(linkKey(token), LINK_CALLS_PER_LINK);
    const events = await count('envelope_events', sql`envelope_id = ${envelopeId}`);
    const emails = await count('emails');
    const audits = await count('audit_events');

    expectTooMany(await server.call({ method: 'GET', url: `/api/esign/${token}`, token: c.client }), WINDOW_S);
    expectTooMany(await calls.sendCode(c, token), WINDOW_S);
    expectTooMany(await calls.sign(c, token, '123456'), WINDOW_S);

    expect(await count('envelope_events', sql`envelope_id = ${envelopeId}`)).toBe(events);
    expect(await count('emails')).toBe(emails);
    expect(await count('audit_events')).toBe(audits);
    const [envelope] = await server.rows<{ code_hash: string | null; code_attempts: number }>(
      sql`select code_hash, code_attempts from envelopes where id = ${envelopeId}`,
    );
    expect(envelope).toEqual({ code_hash: null, code_attempts: 0 });
  });
});

describe('drawdown requests', () => {
  const requestDrawdown = (applicationId: number, token: string, overrides: Record<string, unknown> = {}) =>
    server.call({ method: 'POST', url: '/api/drawdowns', payload: drawdownRequest(applicationId, overrides), token });

  it(`at most ${DRAWDOWN_REQUESTS_PER_LOAN} a day on one loan: then 429 with Retry-After in every process, and nothing is written or emailed`, async () => {
    const side = await buildSide(server, 1_000);
    // A request refused for its own reasons does not count.
    expect((await requestDrawdown(side.applicationId, side.tokens.lawyer, { amount: 0 })).statusCode).toBe(400);
    for (let i = 0; i < DRAWDOWN_REQUESTS_PER_LOAN; i++) {
      const res = await requestDrawdown(side.applicationId, side.tokens.lawyer, { amount: 0.01 });
      expect(res.statusCode, `request ${i + 1}: ${res.body}`).toBe(201);
    }
    const drawdowns = await count('drawdowns', sql`loan_id = ${side.loanId}`);
    const emails = await count('emails');
    const audits = await count('audit_events');
    const sibling = await server.sibling();
    expectTooMany(await requestDrawdown(side.applicationId, side.tokens.lawyer, { amount: 0.01 }), DAY_S);
    expectTooMany(
      await sibling.call({
        method: 'POST',
        url: '/api/drawdowns',
        payload: drawdownRequest(side.applicationId, { amount: 0.01 }),
        token: side.tokens.lawyer,
        headers: { 'idempotency-key': randomUUID() },
      }),
      DAY_S,
    );
    expect(await count('drawdowns', sql`loan_id = ${side.loanId}`)).toBe(drawdowns);
    expect(await count('emails')).toBe(emails);
    expect(await count('audit_events')).toBe(audits);
  });

  it('a refused request keeps no answer for its Idempotency-Key: the same key is let through once the wait is over', async () => {
    const side = await buildSide(server, 1_000);
    await fillCounter(`drawdown-request:loan:${side.loanId}`, DRAWDOWN_REQUESTS_PER_LOAN);
    const key = randomUUID();
    const send = () =>
      server.call({
        method: 'POST',
        url: '/api/drawdowns',
        payload: drawdownRequest(side.applicationId, { amount: 0.01 }),
        token: side.tokens.lawyer,
        headers: { 'idempotency-key': key },
      });
    expectTooMany(await send(), DAY_S);
    await server.rows(
      sql`update rate_limits set window_started_at = now() - interval '25 hours' where key = ${`drawdown-request:loan:${side.loanId}`}`,
    );
    expect((await send()).statusCode).toBe(201);
  });

  it(`at most ${DRAWDOWN_REQUESTS_PER_REQUESTER} a day by one lawyer over all their loans`, async () => {
    const lawyer = await buildLawyer(server.db);
    const token = await signInAs(server, lawyer);
    // Enough loans to spend the lawyer's count without filling any loan's, and one more with none.
    const loans = Math.ceil(DRAWDOWN_REQUESTS_PER_REQUESTER / DRAWDOWN_REQUESTS_PER_LOAN);
    const applications: number[] = [];
    for (let i = 0; i <= loans; i++) {
      const application = await buildApplication(server.db, { lawyerId: lawyer.id, status: 'approved' });
      await buildLoan(server.db, { applicationId: application.id, creditOffered: 1_000 });
      applications.push(application.id);
    }
    for (let i = 0; i < DRAWDOWN_REQUESTS_PER_REQUESTER; i++) {
      const res = await requestDrawdown(applications[i % loans]!, token, { amount: 0.01 });
      expect(res.statusCode, `request ${i + 1}: ${res.body}`).toBe(201);
    }
    const emails = await count('emails');
    // A loan of theirs with no request yet is refused too: the lawyer's own count is full.
    expectTooMany(await requestDrawdown(applications[loans]!, token, { amount: 0.01 }), DAY_S);
    expect(await count('emails')).toBe(emails);
    // Another lawyer is counted on their own.
    const other = await buildSide(server, 1_000);
    expect((await requestDrawdown(other.applicationId, other.tokens.lawyer, { amount: 0.01 })).statusCode).toBe(201);
  });

  it('an invoice number or a date far longer than one is 400 tooLong, not stored', async () => {
    const side = await buildSide(server, 1_000);
    const long = await requestDrawdown(side.applicationId, side.tokens.lawyer, {
      invoiceNumber: 'I'.repeat(101),
      nextHearingDate: `${'1'.repeat(30)}/2027`,
    });
    expect(long.statusCode, long.body).toBe(400);
    expect(long.json()).toEqual({ error: 'validation', fields: { invoiceNumber: 'tooLong', nextHearingDate: 'tooLong' } });
    expect(await count('drawdowns', sql`loan_id = ${side.loanId}`)).toBe(0);
  });
});

describe('numbers a request carries', () => {
  it('a count, a percentage or an amount out of range is 400 with the field’s code, never a 500, and nothing is saved', async () => {
    const lawyer = await buildLawyer(server.db);
    const token = await signInAs(server, lawyer);
    const application = await buildApplication(server.db, { lawyerId: lawyer.id });
    const a = applicationsApi(server);
    const cases: [string, Record<string, unknown>, Record<string, string>][] = [
      ['personal', { dependantsUnder18: 2 ** 31 }, { 'journeyData.personal.dependantsUnder18': 'invalid' }],
      ['personal', { dependantsOther: -1 }, { 'journeyData.personal.dependantsOther': 'positive' }],
      ['personal', { yearsWithEmployer: 1e300 }, { 'journeyData.personal.yearsWithEmployer': 'invalid' }],
      ['financial', { monthlyIncome: 1e300 }, { 'journeyData.financial.monthlyIncome': 'amountTooLarge' }],
      ['asset', { clientInterest: 101 }, { 'journeyData.asset.clientInterest': 'invalid' }],
      ['case', { feeEstimate: MONEY_MAX_POUNDS + 1 }, { 'journeyData.case.feeEstimate': 'amountTooLarge' }],
    ];
    for (const [step, data, fields] of cases) {
      const res = await a.save(token, step, application.id, 0, data);
      expect(res.statusCode, `${step} ${JSON.stringify(data)}: ${res.body}`).toBe(400);
      expect(res.json()).toEqual({ error: 'validation', fields });
    }
    expect(await count('application_steps', sql`application_id = ${application.id}`)).toBe(0);
  });

  it('the loan amount, a drawdown amount, a solicitor’s fee and a record id beyond their bounds are 400', async () => {
    const side = await buildSide(server, 1_000);
    const update = (payload: object) => server.call({ method: 'POST', url: '/api/loans/update', payload, token: root });
    const tooLarge = await update({ loanId: side.loanId, amount: MONEY_MAX_POUNDS + 1 });
    expect(tooLarge.statusCode, tooLarge.body).toBe(400);
    expect(tooLarge.json()).toEqual({ error: 'validation', fields: { amount: 'amountTooLarge' } });
    const badId = await update({ loanId: 2 ** 31, amount: 10 });
    expect(badId.statusCode, badId.body).toBe(400);
    expect(badId.json()).toEqual({ error: 'validation', fields: { loanId: 'invalid' } });

    const drawdown = await requestDrawdown(side, { amount: 1e300 });
    expect(drawdown.statusCode, drawdown.body).toBe(400);
    expect(drawdown.json()).toEqual({ error: 'validation', fields: { amount: 'amountTooLarge' } });

    const fee = await server.call({
      method: 'POST',
      url: '/api/solicitors',
      payload: {
        name: 'Costly & Co',
        address: { city: 'Leeds' },
        contactNumber: '0113 496 0000',
        email: 'costly@example.test',
        fee: 1e12,
        deliveryMethod: 'email',
      },
      token: root,
    });
    expect(fee.statusCode, fee.body).toBe(400);
    expect(fee.json()).toMatchObject({ error: 'validation', fields: { fee: 'amountTooLarge' } });
  });
});

function requestDrawdown(side: { applicationId: number; tokens: { lawyer: string } }, overrides: Record<string, unknown>) {
  return server.call({
    method: 'POST',
    url: '/api/drawdowns',
    payload: drawdownRequest(side.applicationId, overrides),
    token: side.tokens.lawyer,
  });
}
