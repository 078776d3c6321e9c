/**
 * The emails sent about an application, as staff read them (docs/decisions.md 277): GET /mail/{id},
 * GET /mail/{id}/{mailId} and GET /pdf-generator/from-email; every role, in and out of scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { enqueueEmail } from '../../src/server/mail/outbox';
import { startTestServer, type TestServer } from './harness';
import { buildApplication, buildClient, buildFirmAdmin, buildLawyer, buildUser, signInAs } from './factories';
import { fetchLink } from './files-helpers';

let server: TestServer;
const token = {} as Record<'lawyer' | 'firm' | 'customer' | 'admin' | 'root', string>;
let ours: number;
let theirs: number;
const mailIds: number[] = [];
let theirMail: number;

beforeAll(async () => {
  server = await startTestServer();
  const { db } = server;
  const lawyer = await buildLawyer(db);
  const customer = await buildClient(db);
  token.lawyer = await signInAs(server, lawyer);
  token.firm = await signInAs(server, await buildFirmAdmin(db, { firmId: lawyer.firmId }));
  token.customer = await signInAs(server, customer);
  token.admin = await signInAs(server, await buildUser(db, { role: 'admin' }));
  token.root = await signInAs(server, await buildUser(db, { role: 'root' }));
  ours = (
    await buildApplication(db, {
      lawyerId: lawyer.id,
      clientId: customer.id,
      status: 'submitted',
      steps: { case: { caseRef: 'MAIL-1' } },
    })
  ).id;
  theirs = (await buildApplication(db, { lawyerId: (await buildLawyer(db)).id, status: 'submitted' })).id;
  for (let i = 1; i <= 7; i++) {
    mailIds.push(
      await enqueueEmail(db, {
        to: i % 2 ? lawyer.email : customer.email,
        subject: `Update ${i}`,
        text: `Hello ${i}\n\nThe application has news.`,
        html: `<p>Hello ${i}</p>`,
        userType: i % 2 ? 'lawyer' : 'customer',
        applicationId: ours,
      }),
    );
    // Distinct times, oldest first, so "newest first" is visible.
    await server.rows(sql`update emails set created_at = now() - ${8 - i} * interval '1 minute' where id = ${mailIds.at(-1)!}`);
  }
  theirMail = await enqueueEmail(db, {
    to: 'someone@factory.test',
    subject: 'Theirs',
    text: 'Not yours',
    html: '<p>Not yours</p>',
    userType: 'customer',
    applicationId: theirs,
  });
});
afterAll(async () => {
  await server?.close();
});

const get = (url: string, t: string) => server.call({ method: 'GET', url, token: t });

describe('GET /mail/{id}', () => {
  it('pages the application’s emails newest first, three to a page as the review screen shows them', async () => {
    const first = await get(`/api/mail/${ours}?page=1&pageSize=3`, token.admin);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ total: 7, page: 1, pageSize: 3 });
    expect(first.json().items.map((e: { subject: string }) => e.subject)).toEqual(['Update 7', 'Update 6', 'Update 5']);
    expect(first.json().items[0]).toEqual({
      id: mailIds[6],
      date: expect.any(String),
      userType: 'lawyer',
      subject: 'Update 7',
      to: expect.stringContaining('@factory.test'),
      from: server.config.mailFrom,
    });
    const last = await get(`/api/mail/${ours}?page=3&pageSize=3`, token.root);
    expect(last.json().items.map((e: { subject: string }) => e.subject)).toEqual(['Update 1']);
    const defaults = (await get(`/api/mail/${ours}`, token.admin)).json();
    expect(defaults).toMatchObject({ total: 7, page: 1, pageSize: 10 });
    expect(defaults.items).toHaveLength(7);
  });

  it('is for staff only; an unknown application is 404', async () => {
    for (const role of ['lawyer', 'firm', 'customer'] as const)
      expect((await get(`/api/mail/${ours}`, token[role])).statusCode, role).toBe(403);
    expect((await get('/api/mail/999999', token.admin)).statusCode).toBe(404);
    expect((await get(`/api/mail/${ours}?pageSize=0`, token.admin)).statusCode).toBe(400);
  });
});

describe('GET /mail/{id}/{mailId}', () => {
  it('answers one email with its bodies', async () => {
    const res = await get(`/api/mail/${ours}/${mailIds[0]}`, token.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: mailIds[0], subject: 'Update 1', html: '<p>Hello 1</p>' });
    expect(res.json().text).toContain('Hello 1');
  });

  it('is 404 for another application’s email and a missing one, 403 for other roles', async () => {
    expect((await get(`/api/mail/${ours}/${theirMail}`, token.admin)).statusCode).toBe(404);
    expect((await get(`/api/mail/${theirs}/${mailIds[0]}`, token.admin)).statusCode).toBe(404);
    expect((await get(`/api/mail/${ours}/999999`, token.admin)).statusCode).toBe(404);
    for (const role of ['lawyer', 'firm', 'customer'] as const)
      expect((await get(`/api/mail/${ours}/${mailIds[0]}`, token[role])).statusCode, role).toBe(403);
  });
});

describe('GET /pdf-generator/from-email', () => {
  it('answers a short-lived link to a PDF of the stored email', async () => {
    const res = await get(`/api/pdf-generator/from-email?applicationId=${ours}&mailId=${mailIds[2]}`, token.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().url).toMatch(/^\/api\/files\/[A-Za-z0-9_-]{43}$/);
    expect(res.json().fileName).toMatch(/email.*\.pdf$/);
    const file = await fetchLink(server, res.json().url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  }, 30_000);

  it('needs the mailId; another application’s email is 404; other roles 403', async () => {
    const missing = await get(`/api/pdf-generator/from-email?applicationId=${ours}&subject=Update`, token.admin);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'validation', fields: { mailId: 'required' } });
    expect((await get(`/api/pdf-generator/from-email?applicationId=${ours}&mailId=${theirMail}`, token.admin)).statusCode).toBe(
      404,
    );
    for (const role of ['lawyer', 'firm', 'customer'] as const)
      expect(
        (await get(`/api/pdf-generator/from-email?applicationId=${ours}&mailId=${mailIds[0]}`, token[role])).statusCode,
        role,
      ).toBe(403);
  });
});
