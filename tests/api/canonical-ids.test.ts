import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildFirm, buildUser, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
let root: string;
let firmId: number;

beforeAll(async () => {
  server = await startTestServer();
  root = await signInAs(server, await buildUser(server.db, { role: 'root' }));
  firmId = (await buildFirm(server.db)).id;
});
afterAll(async () => {
  await server.close();
});

/** Texts a lenient parser reads as a number; each names the test's firm (or 16, for 0x10). */
const lenient = (id: number) => [
  `0x${id.toString(16)}`,
  `${id}e0`,
  `+${id}`,
  `0${id}`,
  `%20${id}`,
  `${id}%20`,
  `${id}.0`,
  `${id}.`,
  `0b${id.toString(2)}`,
];

const liveFirms = async () =>
  (await server.rows<{ n: number }>(sql`select count(*)::int as n from firms where deleted_at is null`))[0]!.n;

describe('ids are canonical decimal integers', () => {
  it('refuses lenient path ids with 400 before any record is read or changed', async () => {
    const before = await liveFirms();
    for (const text of lenient(firmId)) {
      for (const [method, url] of [
        ['GET', `/api/firms/${text}`],
        ['DELETE', `/api/firms/${text}`],
        ['GET', `/api/firms/${text}/lawyers`],
        ['GET', `/api/solicitors/${text}`],
        ['GET', `/api/applications/${text}`],
        ['DELETE', `/api/lawyers/${text}`],
      ] as const) {
        const res = await server.call({ method, url, token: root });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual({ error: 'validation', fields: { id: 'invalid' } });
      }
    }
    expect(await liveFirms()).toBe(before);
  });

  it('refuses lenient integers in the query', async () => {
    for (const text of ['01', '1e0', '+1', '0x1', '1.0']) {
      const res = await server.call({ method: 'GET', url: `/api/firms?page=${text}`, token: root });
      expect(res.statusCode, `page=${text}`).toBe(400);
      expect(res.json().fields).toEqual({ page: 'invalid' });
    }
  });

  it('refuses ids in bodies that are not integers (no coercion of bodies)', async () => {
    for (const firmIdValue of [String(firmId), `0${firmId}`, firmId + 0.5, `0x${firmId.toString(16)}`]) {
      const res = await server.call({
        method: 'POST',
        url: '/api/firms/update',
        token: root,
        payload: { firmId: firmIdValue, name: 'Renamed' },
      });
      expect(res.statusCode, String(firmIdValue)).toBe(400);
      expect(res.json().fields.firmId).toBe('invalid');
    }
    const [firm] = await server.rows<{ name: string }>(sql`select name from firms where id = ${firmId}`);
    expect(firm!.name).not.toBe('Renamed');
  });

  it('still reads canonical ids', async () => {
    expect((await server.call({ method: 'GET', url: `/api/firms/${firmId}`, token: root })).statusCode).toBe(200);
    expect((await server.call({ method: 'GET', url: '/api/firms?page=1', token: root })).statusCode).toBe(200);
  });
});
