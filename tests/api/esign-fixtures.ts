import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestServer } from './harness';
import { buildApplication, buildClient, buildLawyer, buildSolicitor, signInAs } from './factories';
import { personal, validSteps } from './applications-fixtures';

/** An application ready for the e-signature calls, with its lawyer's and client's tokens. */
export interface SigningCase {
  applicationId: number;
  firmId: number;
  lawyer: string;
  client: string;
  clientEmail: string;
  lawyerEmail: string;
}

/** An application accepted by the provider, with the certificate of advice ticked and a loan amount of £40,000. */
export async function buildSigningCase(
  server: TestServer,
  options: { independentAdvice?: boolean; loanAmount?: number | null; status?: 'providerAccepted' | 'submitted' } = {},
): Promise<SigningCase> {
  const { db } = server;
  const lawyer = await buildLawyer(db);
  const client = await buildClient(db, { firstName: 'Nina', surname: 'Fairweather' });
  const solicitor = await buildSolicitor(db, { name: 'Ashdown Independent Law' });
  const application = await buildApplication(db, {
    lawyerId: lawyer.id,
    clientId: client.id,
    status: options.status ?? 'providerAccepted',
    loanAmount: options.loanAmount === undefined ? 40_000 : options.loanAmount,
    steps: {
      personal: personal(client.email),
      case: validSteps.case,
      independent: { useOwnSolicitor: false, solicitorId: solicitor.id, consent: true, authorised: true },
    },
  });
  await server.rows(
    sql`update applications set independent_advice = ${options.independentAdvice ?? true} where id = ${application.id}`,
  );
  return {
    applicationId: application.id,
    firmId: lawyer.firmId,
    lawyer: await signInAs(server, lawyer),
    client: await signInAs(server, client),
    clientEmail: client.email,
    lawyerEmail: lawyer.email,
  };
}

/** The signing calls a client makes, on one server. */
export function signingCalls(server: Pick<TestServer, 'call' | 'rows'>) {
  const post = (url: string, payload: object, token: string, headers: Record<string, string> = {}) =>
    server.call({ method: 'POST', url, payload, token, headers });
  return {
    post,
    /** POST /docusign/sign: the signing page's token. */
    async openSigning(c: Pick<SigningCase, 'applicationId' | 'client'>): Promise<string> {
      const res = await post('/api/docusign/sign', { applicationId: c.applicationId }, c.client);
      expect(res.statusCode, res.body).toBe(200);
      const url = res.json().envelopUrl as string;
      expect(url).toMatch(/^\/esign\/[A-Za-z0-9_-]{43}$/);
      return url.slice('/esign/'.length);
    },
    sendCode: (c: Pick<SigningCase, 'client'>, token: string) => post(`/api/esign/${token}/code`, {}, c.client),
    /** The one-time code last emailed to the client for this application. */
    async lastCode(c: Pick<SigningCase, 'applicationId' | 'clientEmail'>): Promise<string> {
      const [row] = await server.rows<{ text_body: string }>(
        sql`select text_body from emails where application_id = ${c.applicationId} and to_address = ${c.clientEmail} and subject = 'Your code to sign your documents' order by id desc limit 1`,
      );
      return /one-time code is (\d{6})/.exec(row!.text_body)![1]!;
    },
    sign: (c: Pick<SigningCase, 'client'>, token: string, code: string) =>
      post(`/api/esign/${token}/sign`, { code, agree: true }, c.client),
  };
}

/** The client of a notified application signs it, as on the signing page: link, code, sign. */
export async function signAsClient(
  server: Pick<TestServer, 'call' | 'rows'>,
  c: Pick<SigningCase, 'applicationId' | 'client' | 'clientEmail'>,
) {
  const calls = signingCalls(server);
  const token = await calls.openSigning(c);
  expect((await calls.sendCode(c, token)).statusCode).toBe(200);
  return calls.sign(c, token, await calls.lastCode(c));
}

/** Staff prepare the envelope (POST /docusign/init) and notify the client (POST /docusign/notify). */
export async function prepareAndNotify(server: Pick<TestServer, 'call'>, applicationId: number, staffToken: string) {
  const init = await server.call({
    method: 'POST',
    url: '/api/docusign/init',
    payload: { applicationId, state: 'esignPrepared' },
    token: staffToken,
  });
  expect(init.statusCode, init.body).toBe(200);
  const notify = await server.call({
    method: 'POST',
    url: '/api/docusign/notify',
    payload: { applicationId },
    token: staffToken,
  });
  expect(notify.statusCode, notify.body).toBe(200);
}
