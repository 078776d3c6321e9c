import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CONTRACT_PATH } from '../../src/server/app';
import { loadOperations } from '../../src/server/contract/operations';
import { buildUser, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';

// A query parameter the contract does not declare is refused by name, never silently ignored.

let server: TestServer;
let root: string;

beforeAll(async () => {
  server = await startTestServer();
  root = await signInAs(server, await buildUser(server.db, { role: 'root' }));
});
afterAll(async () => {
  await server.close();
});

/** What a new firm writes: its row and its admin's account. */
const firmsAndAccounts = async () =>
  (
    await server.rows<{ firms: number; users: number }>(
      sql`select (select count(*)::int from firms) as firms, (select count(*)::int from users) as users`,
    )
  )[0];

describe('a query parameter the call does not take', () => {
  it('is refused by name on a list, beside the ones it takes (a misspelt filter does not answer the whole list)', async () => {
    const res = await server.call({ method: 'GET', url: '/api/applications?page=1&stauts=submitted', token: root });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: 'validation', fields: { stauts: 'unknownField' } });
  });

  it('is refused on a call that takes no query at all', async () => {
    const res = await server.call({ method: 'GET', url: '/api/config?debug=1' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: 'validation', fields: { debug: 'unknownField' } });
  });

  it('refuses a write before anything is written', async () => {
    const before = await firmsAndAccounts();
    const res = await server.call({
      method: 'POST',
      url: '/api/firms?dryRun=true',
      token: root,
      payload: { firmName: 'Unknown Parameter LLP', firstName: 'Ada', surname: 'Admin', login: 'unknown-parameter@firms.test' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: 'validation', fields: { dryRun: 'unknownField' } });
    expect(await firmsAndAccounts()).toEqual(before);
  });

  it('is refused by every operation of the contract that reads or removes, before anything is read', async () => {
    // A body is checked before the query, so the operations that take one are left to the test above.
    const reached: string[] = [];
    for (const op of loadOperations(CONTRACT_PATH)) {
      if (op.devOnly || (op.method !== 'GET' && op.method !== 'DELETE')) continue;
      const url = op.url.replace(/:[A-Za-z]+/g, '1');
      const res = await server.call({ method: op.method, url: `${url}?zzUnknown=1`, token: root });
      // Refused first for who is calling (401, 403) is fine; anything the call goes on to read is not.
      if (res.statusCode === 401 || res.statusCode === 403) continue;
      expect(res.statusCode, `${op.method} ${op.path}: ${res.body}`).toBe(400);
      // The path is checked before the query, too: '1' is not every path's value (a document type).
      const pathNames = [...op.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const fields = Object.keys(res.json().fields ?? {});
      if (fields.length > 0 && fields.every((field) => pathNames.includes(field))) continue;
      expect(res.json().fields?.zzUnknown, `${op.method} ${op.path}: ${res.body}`).toBe('unknownField');
      reached.push(op.operationId);
    }
    expect(reached.length).toBeGreaterThan(25);
  });
});
