/**
 * Every document the portal makes is PDF/A-2b (fonts embedded, XMP, sRGB output intent, sound
 * structure) and numbers its pages over the file as delivered, the signature's certificate page
 * included; and every document, email and GET /config name the provider in its one configured
 * role (docs/decisions.md 490-497).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { enqueueEmail } from '../../src/server/mail/outbox';
import { renderEmail } from '../../src/server/mail/templates';
import { contractDocumentTypes } from '../../src/shared/rules/document-types';
import { validPersonal, validSteps } from '../fixtures/journeys';
import { buildApplication, buildClient, buildLawyer, buildUser, signInAs } from './factories';
import { fetchLink } from './files-helpers';
import { startTestServer, type TestServer } from './harness';
import { expectArchivalPdf } from './pdf-archival-checks';

const LENDER_STATEMENT = 'Provider Finance Ltd is the lender of the loans made through this portal.';

/** A long answer: the application PDF runs to several pages. */
const LONG_ANSWER = Array.from(
  { length: 300 },
  (_, i) => `Sentence ${i + 1} of the settlement principles, with “quotes” and £ signs.`,
).join(' ');

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAs(server, await buildUser(server.db, { role: 'admin' }));
});
afterAll(async () => {
  await server?.close();
});

/** An application accepted by the provider, ready for its contract set: loan amount, advice certified. */
async function acceptedCase(on: TestServer) {
  const lawyer = await buildLawyer(on.db);
  const client = await buildClient(on.db, { firstName: 'Nina', surname: 'Fairweather' });
  const application = await buildApplication(on.db, {
    lawyerId: lawyer.id,
    clientId: client.id,
    status: 'providerAccepted',
    loanAmount: 40_000,
    steps: {
      personal: validPersonal(client.email),
      ...validSteps,
      case: { ...validSteps.case, settlementPrinciples: LONG_ANSWER },
    },
  });
  await on.rows(sql`update applications set independent_advice = true where id = ${application.id}`);
  return {
    applicationId: application.id,
    lawyer: await signInAs(on, lawyer),
    client: await signInAs(on, client),
    clientEmail: client.email,
  };
}

async function stored(on: TestServer, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await on.storage().open(key))!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The contract set made by POST /docusign/init, one PDF per type. */
async function contractSet(on: TestServer, staff: string, applicationId: number) {
  const init = await on.call({
    method: 'POST',
    url: '/api/docusign/init',
    payload: { applicationId, state: 'esignPrepared' },
    token: staff,
  });
  expect(init.statusCode, init.body).toBe(200);
  const rows = await on.rows<{ type: string; key: string }>(
    sql`select type, key from files where application_id = ${applicationId} and deleted_at is null order by id`,
  );
  return Promise.all(rows.map(async (row) => ({ type: row.type, pdf: await stored(on, row.key) })));
}

async function applicationPdf(token: string, applicationId: number, variant: 'full' | 'summary') {
  const link = await server.call({
    method: 'GET',
    url: `/api/pdf-generator/for-application-json/${applicationId}?variant=${variant}`,
    token,
  });
  expect(link.statusCode, link.body).toBe(200);
  const res = await fetchLink(server, link.json().url);
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

describe('PDF/A-2b documents', () => {
  it('the application PDF, full and summary: fonts embedded, PDF/A-2b, page numbers over the file', async () => {
    const c = await acceptedCase(server);
    const full = await expectArchivalPdf(await applicationPdf(c.lawyer, c.applicationId, 'full'), 'application PDF');
    expect(full.pages).toBeGreaterThan(1);
    expect(full.text).toContain('Sentence 300 of the settlement principles, with “quotes” and £ signs.');
    for (const page of full.pageTexts) expect(page.replace(/\s+/g, ' ')).toContain(LENDER_STATEMENT);
    const summary = await expectArchivalPdf(await applicationPdf(c.client, c.applicationId, 'summary'), 'summary PDF');
    expect(summary.text).toContain(LENDER_STATEMENT);
  }, 60_000);

  it('the email PDF', async () => {
    const c = await acceptedCase(server);
    const email = renderEmail(server.config.brand, {
      subject: 'Your documents are ready to sign',
      heading: 'Your documents are ready to sign',
      body: 'Open the portal to read & sign them: “quotes”, £, and 漢字 the font cannot draw.',
      action: 'Open',
      url: 'http://127.0.0.1/x',
    });
    const mailId = await enqueueEmail(server.db, {
      ...email,
      to: c.clientEmail,
      userType: 'customer',
      applicationId: c.applicationId,
    });
    const link = await server.call({
      method: 'GET',
      url: `/api/pdf-generator/from-email?applicationId=${c.applicationId}&mailId=${mailId}`,
      token: admin,
    });
    expect(link.statusCode, link.body).toBe(200);
    const res = await fetchLink(server, link.json().url);
    const report = await expectArchivalPdf(res.rawPayload, 'email PDF');
    expect(report.text).toContain('Open the portal to read & sign them: “quotes”, £, and ?? the font cannot draw.');
    // The email's own text states the role, and so does the footer of its PDF.
    expect(email.text).toContain(LENDER_STATEMENT);
    expect(email.html).toContain(LENDER_STATEMENT);
    expect(report.text.split(LENDER_STATEMENT).length - 1).toBe(2);
  }, 60_000);

  it('each of the six contract documents', async () => {
    const c = await acceptedCase(server);
    const set = await contractSet(server, admin, c.applicationId);
    expect(set.map((d) => d.type)).toEqual([...contractDocumentTypes]);
    for (const document of set) {
      const report = await expectArchivalPdf(document.pdf, document.type);
      expect(report.text, document.type).toContain(LENDER_STATEMENT);
      expect(report.text, document.type).not.toContain('not a lender');
    }
    const agreement = await expectArchivalPdf(set.find((d) => d.type === 'loanAgreement')!.pdf, 'loanAgreement');
    expect(agreement.text).toMatch(/between Provider Finance Ltd \(the lender\) and Ms Nina Fairweather \(the borrower\)\./);
  }, 120_000);

  it('the signed copy: still PDF/A-2b, and its pages count the certificate page', async () => {
    const c = await acceptedCase(server);
    const unsigned = await contractSet(server, admin, c.applicationId);
    const notify = await server.call({
      method: 'POST',
      url: '/api/docusign/notify',
      payload: { applicationId: c.applicationId },
      token: admin,
    });
    expect(notify.statusCode, notify.body).toBe(200);
    const open = await server.call({
      method: 'POST',
      url: '/api/docusign/sign',
      payload: { applicationId: c.applicationId },
      token: c.client,
    });
    const token = (open.json().envelopUrl as string).slice('/esign/'.length);
    expect(
      (await server.call({ method: 'POST', url: `/api/esign/${token}/code`, payload: {}, token: c.client })).statusCode,
    ).toBe(200);
    const [mail] = await server.rows<{ text_body: string }>(
      sql`select text_body from emails where application_id = ${c.applicationId} and subject = 'Your code to sign your documents' order by id desc limit 1`,
    );
    const code = /one-time code is (\d{6})/.exec(mail!.text_body)![1]!;
    const signed = await server.call({
      method: 'POST',
      url: `/api/esign/${token}/sign`,
      payload: { code, agree: true },
      token: c.client,
    });
    expect(signed.statusCode, signed.body).toBe(200);

    const docs = await server.call({
      method: 'GET',
      url: `/api/docusign/signedDocs?applicationId=${c.applicationId}`,
      token: c.client,
    });
    expect(docs.statusCode, docs.body).toBe(200);
    const documents = docs.json().documents as { type: string; download: { url: string } }[];
    expect(documents.length).toBeGreaterThan(0);
    for (const document of documents) {
      const res = await server.call({ method: 'GET', url: document.download.url });
      expect(res.statusCode).toBe(200);
      const original = await expectArchivalPdf(unsigned.find((d) => d.type === document.type)!.pdf, `${document.type} unsigned`);
      const copy = await expectArchivalPdf(res.rawPayload, `${document.type} signed`);
      // The certificate page is the last page, and the pages before it say "of" the whole file.
      expect(copy.pages).toBe(original.pages + 1);
      expect(copy.pageTexts.at(-1)).toContain('Certificate of electronic signature');
      expect(copy.pageTexts[0]).toContain(`Page 1 of ${copy.pages}`);
    }
  }, 180_000);
});

describe('one provider identity', () => {
  it('by default the provider is the lender: GET /config, the emails and the documents agree', async () => {
    const config = (await server.call({ method: 'GET', url: '/api/config' })).json();
    expect(config).toMatchObject({
      companyName: 'Provider Finance Ltd',
      providerRole: 'lender',
      lenderName: 'Provider Finance Ltd',
    });
    const c = await acceptedCase(server);
    await contractSet(server, admin, c.applicationId);
    const mails = await server.rows<{ text_body: string; html_body: string }>(
      sql`select text_body, html_body from emails order by id desc limit 20`,
    );
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) {
      expect(mail.text_body).toContain(LENDER_STATEMENT);
      expect(mail.text_body).not.toContain('not a lender');
    }
  }, 60_000);

  it('a credit broker: the footer’s words, the emails and the documents name the broker and its lender', async () => {
    const broker = loadConfig({
      NODE_ENV: 'test',
      PROVIDER_NAME: 'Broker Finance Ltd',
      PROVIDER_ROLE: 'broker',
      LENDER_NAME: 'Lending Partner plc',
      LENDER_ADDRESS: '2 Lending Lane, Leeds LS1 1AA',
      LENDER_COMPANY_NUMBER: '07654321',
      LENDER_REGULATOR_REFERENCE: 'FRN 654321',
    });
    const statement = 'Broker Finance Ltd is a credit broker and not a lender. The loans are made by Lending Partner plc.';
    const other = await startTestServer({ provider: broker.provider, brand: broker.brand });
    try {
      expect((await other.call({ method: 'GET', url: '/api/config' })).json()).toMatchObject({
        companyName: 'Broker Finance Ltd',
        providerRole: 'broker',
        lenderName: 'Lending Partner plc',
      });
      const staff = await signInAs(other, await buildUser(other.db, { role: 'admin' }));
      const c = await acceptedCase(other);
      const set = await contractSet(other, staff, c.applicationId);
      const agreement = await expectArchivalPdf(set.find((d) => d.type === 'loanAgreement')!.pdf, 'loanAgreement');
      expect(agreement.text).toContain(
        'between Lending Partner plc (the lender) and Ms Nina Fairweather (the borrower), arranged by Broker Finance Ltd (the credit broker).',
      );
      expect(agreement.text).toContain('Lender Lending Partner plc, 2 Lending Lane, Leeds LS1 1AA');
      expect(agreement.text).toContain('Credit broker Broker Finance Ltd');
      expect(agreement.text).toContain(statement);
      const letter = await expectArchivalPdf(set.find((d) => d.type === 'instructionsToSolicitorsLetter')!.pdf, 'letter');
      expect(letter.text).toContain('to pay to Lending Partner plc (2 Lending Lane, Leeds LS1 1AA, company number 07654321)');
      const notify = await other.call({
        method: 'POST',
        url: '/api/docusign/notify',
        payload: { applicationId: c.applicationId },
        token: staff,
      });
      expect(notify.statusCode, notify.body).toBe(200);
      const [mail] = await other.rows<{ text_body: string }>(
        sql`select text_body from emails where application_id = ${c.applicationId} order by id desc limit 1`,
      );
      expect(mail!.text_body).toContain(statement);
    } finally {
      await other.close();
    }
  }, 120_000);
});
