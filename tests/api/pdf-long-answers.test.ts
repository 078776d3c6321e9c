import { sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { pdfThreadsIdle, pdfWorkersRunning } from '../../src/server/pdf/worker-pool';
import { TEXT_MAX_LENGTH } from '../../src/shared/rules/limits';
import { validPersonal, validSteps } from '../fixtures/journeys';
import { buildApplication, buildClient, buildLawyer, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';
import { fetchLink } from './files-helpers';

let server: TestServer;
let token: string;
let applicationId: number;

const pdfUrl = (id: number) => `/api/pdf-generator/for-application-json/${id}`;

/** Every string in a step's answers (nested ones too) becomes one word of the longest length accepted. */
function planted(value: unknown, word: string): unknown {
  if (typeof value === 'string') return word;
  if (Array.isArray(value)) return value.map((v) => planted(v, word));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, planted(v, word)]));
  return value;
}

/** A lawyer and their client's signed application with every step answered, on the given server. */
async function signedApplication(on: TestServer) {
  const lawyer = await buildLawyer(on.db);
  const customer = await buildClient(on.db);
  const application = await buildApplication(on.db, {
    lawyerId: lawyer.id,
    clientId: customer.id,
    status: 'customerAccepted',
    steps: { personal: validPersonal(customer.email), ...validSteps },
  });
  return { token: await signInAs(on, lawyer), applicationId: application.id };
}

/** Every answer and the case reference become one word of the longest length accepted. */
async function withLongestAnswers(on: TestServer, id: number): Promise<void> {
  const word = 'W'.repeat(TEXT_MAX_LENGTH);
  const steps = await on.rows<{ step: string; data: unknown }>(
    sql`select step, data from application_steps where application_id = ${id}`,
  );
  expect(steps.length).toBeGreaterThan(0);
  for (const { step, data } of steps) {
    await on.rows(
      sql`update application_steps set data = ${JSON.stringify(planted(data, word))}::jsonb where application_id = ${id} and step = ${step}`,
    );
  }
  await on.rows(sql`update applications set case_ref = ${word} where id = ${id}`);
}

beforeAll(async () => {
  server = await startTestServer();
  ({ token, applicationId } = await signedApplication(server));
  await withLongestAnswers(server, applicationId);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the application PDF with the longest answers the steps accept', () => {
  it('is made off the request thread: other requests answer quickly meanwhile, and the PDF arrives', async () => {
    const link = await server.call({ method: 'GET', url: pdfUrl(applicationId), token });
    expect(link.statusCode, link.body).toBe(200);
    const started = Date.now();
    const pdf = fetchLink(server, link.json().url);
    const answerTimes: number[] = [];
    let done = false;
    void pdf.finally(() => (done = true));
    while (!done) {
      const before = performance.now();
      const config = await server.call({ method: 'GET', url: '/api/config' });
      expect(config.statusCode).toBe(200);
      answerTimes.push(performance.now() - before);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const res = await pdf;
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect((await PDFDocument.load(res.rawPayload)).getPageCount()).toBeGreaterThan(10);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(answerTimes.length).toBeGreaterThan(0);
    expect(Math.max(...answerTimes)).toBeLessThan(500);
  }, 60_000);

  it('past its time limit answers 503 pdfTimeout and the worker is ended', async () => {
    const defaults = loadConfig({ NODE_ENV: 'test' }).timeouts;
    const hurried = await startTestServer({ timeouts: { ...defaults, pdfTimeoutMs: 50 } });
    try {
      // An ordinary application's PDF takes less than 50 ms on a thread kept from an earlier job.
      const { token: lawyer, applicationId: id } = await signedApplication(hurried);
      await withLongestAnswers(hurried, id);
      // The job takes an idle thread if there is one; the timed-out thread is terminated, not kept.
      const idleBefore = pdfThreadsIdle();
      const link = await hurried.call({ method: 'GET', url: pdfUrl(id), token: lawyer });
      const res = await fetchLink(hurried, link.json().url);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'pdfTimeout' });
      // Not kept for another job (that it is terminated is worker-pool.test.ts's to show).
      expect(pdfThreadsIdle()).toBe(Math.max(0, idleBefore - 1));
      expect(pdfWorkersRunning()).toBe(0);
      // The window the details page opens on the link reads it in words.
      const again = await hurried.call({ method: 'GET', url: pdfUrl(id), token: lawyer });
      const page = await hurried.call({ method: 'GET', url: again.json().url, headers: { 'sec-fetch-dest': 'document' } });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('<h1>The PDF took too long to make. Please try again later.</h1>');
    } finally {
      await hurried.close();
    }
  }, 60_000);
});
