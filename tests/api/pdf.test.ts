import { sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printedValue } from '../../src/shared/journey/display';
import { validPersonal, validSteps } from '../fixtures/journeys';
import { buildApplication, buildClient, buildFirmAdmin, buildLawyer, buildUser, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';
import { fetchLink, otherLawyer } from './files-helpers';

let server: TestServer;
const tokens = {} as Record<'lawyer' | 'customer' | 'firm' | 'admin' | 'other', string>;
let customerApp: number;
let incompleteApp: number;

beforeAll(async () => {
  server = await startTestServer();
  const { db } = server;
  const lawyer = await buildLawyer(db);
  const customer = await buildClient(db);
  const accounts = {
    lawyer,
    customer,
    firm: await buildFirmAdmin(db, { firmId: lawyer.firmId }),
    admin: await buildUser(db, { role: 'admin' }),
  };
  for (const role of ['lawyer', 'customer', 'firm', 'admin'] as const) tokens[role] = await signInAs(server, accounts[role]);
  tokens.other = await otherLawyer(server);
  // The client's signed application, every step answered; and another client's with only its first step.
  customerApp = (
    await buildApplication(db, {
      lawyerId: lawyer.id,
      clientId: customer.id,
      status: 'customerAccepted',
      steps: { personal: validPersonal(customer.email), ...validSteps },
    })
  ).id;
  incompleteApp = (
    await buildApplication(db, { lawyerId: lawyer.id, steps: { personal: validPersonal('first.step@example.test') } })
  ).id;
});
afterAll(async () => {
  await server?.close();
});

const pdfUrl = (id: number, variant?: string) =>
  `/api/pdf-generator/for-application-json/${id}${variant ? `?variant=${variant}` : ''}`;

async function fetchPdf(id: number, token: string, variant?: string) {
  const link = await server.call({ method: 'GET', url: pdfUrl(id, variant), token });
  expect(link.statusCode, link.body).toBe(200);
  const res = await fetchLink(server, link.json().url);
  expect(res.statusCode).toBe(200);
  return { link: link.json(), res };
}

describe('GET /pdf-generator/for-application-json/{id}', () => {
  it('links to a valid PDF of the whole application, fetched without a bearer token', async () => {
    const { link, res } = await fetchPdf(customerApp, tokens.lawyer!);
    expect(link.fileName).toBe(`A-${String(customerApp).padStart(6, '0')}.pdf`);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`inline; filename="${link.fileName}"`);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(doc.getTitle()).toContain(`A-${String(customerApp).padStart(6, '0')}`);
  });

  it('makes the summary variant too, shorter than the full one', async () => {
    const full = await fetchPdf(customerApp, tokens.admin!, 'full');
    const summary = await fetchPdf(customerApp, tokens.admin!, 'summary');
    expect(summary.link.fileName).toMatch(/-summary\.pdf$/);
    const summaryDoc = await PDFDocument.load(summary.res.rawPayload);
    expect(summaryDoc.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(summary.res.rawPayload.length).toBeLessThan(full.res.rawPayload.length);
  });

  it('wraps long answers onto more pages and survives characters the font cannot draw', async () => {
    const long = Array.from(
      { length: 400 },
      (_, i) => `Sentence ${i + 1} of the settlement principles — with “quotes”, £ signs and 漢字 😀.`,
    ).join(' ');
    await server.rows(
      sql`update application_steps set data = jsonb_set(data, '{settlementPrinciples}', to_jsonb(${long}::text)) where application_id = ${customerApp} and step = 'case'`,
    );
    const { res } = await fetchPdf(customerApp, tokens.lawyer!);
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBeGreaterThan(2);
  });

  it('is scoped like the application: the client’s own, not another’s; 404 out of scope', async () => {
    await fetchPdf(customerApp, tokens.customer!);
    await fetchPdf(incompleteApp, tokens.firm!);
    for (const [token, id] of [
      [tokens.customer!, incompleteApp],
      [tokens.other!, customerApp],
      [tokens.lawyer!, 999999],
    ] as const) {
      const res = await server.call({ method: 'GET', url: pdfUrl(id), token });
      expect(res.statusCode).toBe(404);
    }
    const bad = await server.call({ method: 'GET', url: pdfUrl(customerApp, 'poster'), token: tokens.lawyer });
    expect(bad.statusCode).toBe(400);
  });

  it('prints an application with only its first step', async () => {
    const { res } = await fetchPdf(incompleteApp, tokens.lawyer!);
    expect((await PDFDocument.load(res.rawPayload)).getPageCount()).toBeGreaterThanOrEqual(1);
  });
});

describe('PDF values', () => {
  const lookups = { solicitorNames: new Map([[3, 'Greenway Legal Advice']]), fileNames: new Map([[7, 'form-e.pdf']]) };
  it('prints Yes/No, money, percentages, dates and option labels', () => {
    expect(printedValue('metClient', true, lookups)).toBe('Yes');
    expect(printedValue('dependants', false, lookups)).toBe('No');
    expect(printedValue('feeEstimate', 1234.5, lookups)).toBe('£1,234.50');
    expect(printedValue('monthlyIncome', 4200, lookups)).toBe('£4,200.00');
    expect(printedValue('clientInterest', 50, lookups)).toBe('50%');
    expect(printedValue('dateToKnowMore', '2026-09-30', lookups)).toBe('30/09/2026');
    expect(printedValue('disputeLevel', 'optionB', lookups)).toBe('Contentious');
    expect(printedValue('completion', 'greater', lookups)).toBe('Greater than 70%');
    expect(printedValue('status', 'employedFullTime', lookups)).toBe('Employed full time');
    expect(printedValue('solicitorId', 3, lookups)).toBe('Greenway Legal Advice');
    expect(printedValue('documents', [7], lookups)).toBe('form-e.pdf');
  });
});
