/**
 * Every email about a case speaks to its reader (docs/decisions.md 450): the client reads of 'your
 * loan' and 'your application', never of herself by name in the third person; the lawyer of 'your
 * client'; the provider's staff of the client by name. Checked word for word on the stored text.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness';
import { buildApplication, buildLawyer, buildClient, buildUser, signInAs } from './factories';
import { buildSide, clientDeclarations, drawdownRequest, type Side } from './loans-fixtures';
import { formatApplicationId, shortName } from '../../src/shared/rules/formats';
import { loanReference } from '../../src/shared/rules/loan-reference';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAs(server, await buildUser(server.db, { role: 'admin' }));
});

afterAll(async () => {
  await server?.close();
});

const post = (url: string, payload: object, token: string) =>
  server.call({ method: 'POST', url, payload, token, headers: { 'Idempotency-Key': randomUUID() } });

interface Mail {
  to_address: string;
  user_type: string;
  subject: string;
  text_body: string;
}

/** The emails of the application after `afterId`, oldest first. */
const mailOf = (applicationId: number, afterId = 0) =>
  server.rows<Mail & { id: number }>(
    sql`select id, to_address, user_type, subject, text_body from emails where application_id = ${applicationId} and id > ${afterId} order by id`,
  );
const lastId = async (applicationId: number) => Math.max(0, ...(await mailOf(applicationId)).map((mail) => mail.id));

/** The heading and the sentence of an email (its text's first two paragraphs). */
const words = (mail: Mail | undefined) => mail?.text_body.split('\n\n').slice(0, 2);

const clientName = (side: Side) => `${side.client.firstName} ${side.client.surname}`;

describe('drawdown emails', () => {
  it('speak to the client of her loan, to the lawyer of his client, to the provider of the client by name', async () => {
    const side = await buildSide(server, 10_000);
    const name = clientName(side);
    const created = await post('/api/drawdowns', drawdownRequest(side.applicationId, { amount: 2_500 }), side.tokens.lawyer);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const [requested] = await mailOf(side.applicationId);
    expect(requested!.user_type).toBe('admin');
    expect(words(requested)).toEqual([
      'A drawdown was requested',
      `The lawyer of ${name} has requested a drawdown of £2,500.00. It waits for your review.`,
    ]);

    let after = await lastId(side.applicationId);
    expect((await post(`/api/drawdowns/${id}/state`, { state: 'providerApproved' }, admin)).statusCode).toBe(200);
    const approved = await mailOf(side.applicationId, after);
    expect(approved.map((mail) => mail.user_type)).toEqual(['lawyer', 'customer']);
    const toClient = approved.find((mail) => mail.user_type === 'customer')!;
    expect(toClient.to_address).toBe(side.client.email);
    expect(toClient.subject).toBe('A drawdown waits for your approval');
    expect(words(toClient)).toEqual([
      'A drawdown waits for your approval',
      'The provider has approved a drawdown of £2,500.00 from your loan, requested by your lawyer. Please review it, then approve or reject it.',
    ]);
    expect(toClient.text_body).not.toContain(side.client.surname);
    expect(words(approved.find((mail) => mail.user_type === 'lawyer'))).toEqual([
      'A drawdown waits for your client’s approval',
      `The provider has approved the drawdown of £2,500.00 for your client ${name}. Your client can now review and approve it.`,
    ]);

    after = await lastId(side.applicationId);
    const approval = { state: 'customerApproved', clientDeclarations: clientDeclarations() };
    expect((await post(`/api/drawdowns/${id}/state`, approval, side.tokens.customer)).statusCode).toBe(200);
    const accepted = await mailOf(side.applicationId, after);
    expect(accepted.map((mail) => [mail.user_type, words(mail)])).toEqual([
      [
        'lawyer',
        [
          'Your client approved a drawdown',
          `Your client ${name} has approved the drawdown of £2,500.00. It now waits for payment.`,
        ],
      ],
      ['admin', ['The client approved a drawdown', `${name} has approved the drawdown of £2,500.00. It is ready to be paid.`]],
    ]);

    after = await lastId(side.applicationId);
    expect((await post(`/api/drawdowns/${id}/state`, { state: 'paid' }, admin)).statusCode).toBe(200);
    const paid = await mailOf(side.applicationId, after);
    expect(paid.map((mail) => [mail.user_type, words(mail)])).toEqual([
      ['lawyer', ['A drawdown was paid', `The drawdown of £2,500.00 for your client ${name} has been paid by bank transfer.`]],
      [
        'customer',
        ['A drawdown from your loan was paid', 'The drawdown of £2,500.00 from your loan has been paid by bank transfer.'],
      ],
    ]);
  });
});

describe('loan emails', () => {
  it('tell the client of her own loan and the lawyer of his client’s', async () => {
    const side = await buildSide(server, 10_000, 'FAM-READERS-1');
    const name = clientName(side);
    expect((await post(`/api/loans/${side.loanId}/state`, { state: 'blocked' }, admin)).statusCode).toBe(200);
    const blocked = await mailOf(side.applicationId);
    const reference = loanReference(side.loanId);
    expect(blocked.map((mail) => [mail.user_type, mail.subject, words(mail)![1]])).toEqual([
      [
        'lawyer',
        `Loan ${reference} is now blocked`,
        `The loan of your client ${name} (case FAM-READERS-1) was open and is now blocked.`,
      ],
      ['customer', `Your loan ${reference} is now blocked`, 'Your loan (case FAM-READERS-1) was open and is now blocked.'],
    ]);

    expect((await post(`/api/loans/${side.loanId}/state`, { state: 'open' }, admin)).statusCode).toBe(200);
    const after = await lastId(side.applicationId);
    const update = { loanId: side.loanId, applicationId: side.applicationId, amount: 12_000 };
    expect((await post('/api/loans/update', update, admin)).statusCode).toBe(200);
    // Above what the client signed: the client is asked to sign the variation, the lawyer told (decision 505 onwards).
    const raised = (await mailOf(side.applicationId, after)).map((mail) => [mail.user_type, words(mail)![1]]);
    expect(raised.sort()).toEqual([
      [
        'customer',
        `The credit of your loan ${reference} is to rise from £10,000.00 to £12,000.00. The extra credit can be drawn once you sign the variation of your Credit Agreement: open your loan, read it and choose ‘sign variation’.`,
      ],
      [
        'lawyer',
        `The credit of the loan of your client ${name} (case FAM-READERS-1) is to rise to £12,000.00 once your client signs the variation. Until then drawdowns count against the £10,000.00 they signed for.`,
      ],
    ]);
    // Lowered within what was signed: no signature; the waiting variation is withdrawn, each reader told in their own terms.
    const beforeLowering = await lastId(side.applicationId);
    const lower = { ...update, amount: 9_000 };
    expect((await post('/api/loans/update', lower, admin)).statusCode).toBe(200);
    const lowered = (await mailOf(side.applicationId, beforeLowering)).map((mail) => [mail.user_type, words(mail)![1]]);
    expect(lowered.sort()).toEqual([
      [
        'customer',
        'The credit offered on your loan (case FAM-READERS-1) is now £9,000.00. The variation to £12,000.00 that was waiting for your signature is withdrawn.',
      ],
      [
        'lawyer',
        `The credit offered on the loan of your client ${name} (case FAM-READERS-1) is now £9,000.00. The variation to £12,000.00 that was waiting for your client's signature is withdrawn.`,
      ],
    ]);
  });
});

describe('application emails', () => {
  it('tell the client of her application and the lawyer of his client’s, with the reason', async () => {
    const lawyer = await buildLawyer(server.db);
    const client = await buildClient(server.db);
    const application = await buildApplication(server.db, { lawyerId: lawyer.id, clientId: client.id, status: 'submitted' });
    const body = { applicationId: application.id, state: 'providerRejected', reason: 'Insufficient assets' };
    const res = await post('/api/applications/state/update', body, admin);
    expect(res.statusCode, res.body).toBe(200);
    const reference = formatApplicationId(application.id);
    const short = shortName(client.firstName, client.surname);
    expect((await mailOf(application.id)).map((mail) => [mail.user_type, mail.subject, words(mail)])).toEqual([
      [
        'lawyer',
        `Your client’s application ${reference} (${short}) has been rejected`,
        [
          'The application has been rejected',
          `The provider has rejected your client’s application ${reference} (${short}). Reason given: Insufficient assets`,
        ],
      ],
      [
        'customer',
        'Your application has been rejected',
        [
          'Your application has been rejected',
          `The provider has rejected your application ${reference}. Your lawyer can tell you more. Reason given: Insufficient assets`,
        ],
      ],
    ]);
  });
});
