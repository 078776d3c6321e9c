import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { fetchLink, smallPdf, uploadRequest } from './files-helpers';
import { validPersonal } from '../fixtures/journeys';
import { FACTORY_PASSWORD, buildApplication, buildLawyer, buildUser, signInAs, type BuiltUser } from './factories';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
let applicationId: number;
let fileUrl: string;
let lawyer: Awaited<ReturnType<typeof buildLawyer>>;
let admin: BuiltUser;

beforeAll(async () => {
  server = await startTestServer();
  lawyer = await buildLawyer(server.db);
  admin = await buildUser(server.db, { role: 'admin' });
  applicationId = (
    await buildApplication(server.db, { lawyerId: lawyer.id, steps: { personal: validPersonal('links.client@example.test') } })
  ).id;
  const token = await signInAs(server, lawyer);
  const upload = await server.call(uploadRequest({ applicationId, type: 'formE', bytes: await smallPdf(), token }));
  expect(upload.statusCode, upload.body).toBe(201);
  fileUrl = upload.json().url;
});
afterAll(async () => {
  await server.close();
});

/** A download link made by the session of this bearer token. */
async function linkOf(token: string): Promise<string> {
  const res = await server.call({ method: 'GET', url: fileUrl, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().url as string;
}

async function resetLinkOf(email: string): Promise<string> {
  const mailbox = await server.call({ method: 'GET', url: '/api/dev/mailbox' });
  const link = (mailbox.json().emails as { to: string; links: string[] }[])
    .find((e) => e.to === email)
    ?.links.find((l) => l.includes('/reset/validate/'));
  if (!link) throw new Error(`no reset link for ${email}`);
  return link;
}

describe('download links end with their session', () => {
  it('sign-out spends the links of that session only', async () => {
    const phone = await signInAs(server, lawyer);
    const desk = await signInAs(server, lawyer);
    const fromPhone = await linkOf(phone);
    const fromDesk = await linkOf(desk);
    expect((await server.call({ method: 'DELETE', url: '/api/auth', token: phone })).statusCode).toBe(204);
    expect((await fetchLink(server, fromPhone)).statusCode).toBe(404);
    expect((await fetchLink(server, fromDesk)).statusCode).toBe(200);
  });

  it('a spent link opened in a browser window says so in words, with a way back; an API caller gets the JSON', async () => {
    const token = await signInAs(server, lawyer);
    const link = await linkOf(token);
    expect((await server.call({ method: 'DELETE', url: '/api/auth', token })).statusCode).toBe(204);
    const page = await server.call({ method: 'GET', url: link, headers: { 'sec-fetch-dest': 'document', accept: 'text/html' } });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<h1>The page you were looking for doesn’t exist.</h1>');
    expect(page.body).toMatch(/<a href="[^"]+\/">Back to [^<]+<\/a>/);
    const api = await fetchLink(server, link);
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'notFound' });
  });

  it('a password change (reset) spends the links of every session', async () => {
    const email = lawyer.email;
    const before = await linkOf(await signInAs(server, lawyer));
    expect((await server.call({ method: 'POST', url: '/api/users/reset', payload: { login: email } })).statusCode).toBe(204);
    const token = (await resetLinkOf(email)).split('/').pop();
    const reset = await server.call({
      method: 'POST',
      url: '/api/users/reset/update',
      payload: { token, login: email, password: 'Changed-pass-9' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await fetchLink(server, before)).statusCode).toBe(404);
    // The session the reset opened makes links that work.
    expect((await fetchLink(server, await linkOf(reset.json().token))).statusCode).toBe(200);
  });
});

describe('no token is logged', () => {
  let lines: string[];
  let app: FastifyInstance;
  beforeAll(async () => {
    lines = [];
    // Production logs every request at info level.
    app = await buildApp({
      config: { ...server.config, production: true, devMailbox: false },
      db: server.db,
      logger: { write: (line) => void lines.push(line) },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('logs the URLs of download, invitation and reset links with their tokens redacted', async () => {
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { login: admin.email, password: FACTORY_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    const bearer = signIn.json().token as string;
    const link = (await app.inject({ method: 'GET', url: fileUrl, headers: { authorization: `Bearer ${bearer}` } })).json()
      .url as string;
    const downloadToken = link.split('/').pop()!;
    const uuid = '3f0c9d1e-6a51-4c1b-9a7e-2b8f5d4c6e10';
    expect((await app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
    await app.inject({ method: 'GET', url: `/sign-up-customer/${uuid}` });
    await app.inject({ method: 'GET', url: `/reset/validate/${uuid}?login=someone` });
    await app.inject({ method: 'GET', url: `/api/files/${downloadToken}x` });

    const logged = lines.join('');
    expect(logged).toContain('/api/files/[redacted]');
    expect(logged).toContain('/sign-up-customer/[redacted]');
    expect(logged).toContain('/reset/validate/[redacted]');
    for (const secret of [downloadToken, uuid, bearer]) expect(logged).not.toContain(secret);
  });
});
