import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { demoAccounts } from '../../src/server/seed/seed';
import { CONTRACT_PATH } from '../../src/server/app';
import { loadOperations } from '../../src/server/contract/operations';
import { canonicalJson, isStoredStatus } from '../../src/server/http/idempotency';
import { startTestServer, type TestServer } from './harness';
import { api, count, freshEmail, personal, validSteps } from './applications-fixtures';

let server: TestServer;
let a: ReturnType<typeof api>;
let lawyer: string;
let admin: string;

beforeAll(async () => {
  server = await startTestServer({}, { seed: true });
  a = api(server);
  lawyer = await server.signIn(demoAccounts.lawyer);
  admin = await server.signIn(demoAccounts.admin);
});
afterAll(async () => {
  await server.close();
});

const key = () => ({ 'Idempotency-Key': randomUUID() });

async function emailsTo(to: string): Promise<number> {
  const [row] = await server.rows<{ n: number }>(sql`select count(*)::int as n from emails where to_address = ${to}`);
  return row!.n;
}

describe('the mechanism', () => {
  it('covers the contract’s writes that take the header', () => {
    const ids = loadOperations(CONTRACT_PATH)
      .filter((op) => op.idempotent)
      .map((op) => op.operationId);
    expect(ids).toEqual(
      expect.arrayContaining(['createApplication', 'updateApplicationStep', 'updateApplicationState', 'uploadFile']),
    );
  });

  it('hashes bodies whatever their key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { y: 2, z: 1 }] }, b: 1 }),
    );
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });

  it('keeps answers about the request, not about the session or a fault', () => {
    expect([200, 201, 204, 400, 404, 409].every(isStoredStatus)).toBe(true);
    expect([401, 403, 429, 500, 501, 503].some(isStoredStatus)).toBe(false);
  });
});

describe('replays', () => {
  it('a replayed create makes one application and one invitation, and answers the first answer', async () => {
    const email = freshEmail();
    const headers = key();
    const body = { journeyData: { personal: personal(email) } };
    const before = await count(server, 'applications');
    const first = await a.create(lawyer, body, headers);
    expect(first.statusCode, first.body).toBe(201);
    // Same body, keys in another order: the same request.
    const reordered = { journeyData: { personal: Object.fromEntries(Object.entries(personal(email)).reverse()) } };
    const replay = await a.create(lawyer, reordered, headers);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect(await count(server, 'applications')).toBe(before + 1);
    expect(await emailsTo(email)).toBe(1);
  });

  it('a replayed step save stores one version', async () => {
    const { id } = (await a.create(lawyer, { journeyData: { personal: personal(freshEmail()) } })).json();
    const headers = key();
    const first = await a.save(lawyer, 'financial', id, 0, validSteps.financial, headers);
    const replay = await a.save(lawyer, 'financial', id, 0, validSteps.financial, headers);
    expect(first.statusCode).toBe(200);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ data: { financial: validSteps.financial }, version: 1 });
    // Without the key the same request is a new save from a stale version.
    expect((await a.save(lawyer, 'financial', id, 0, validSteps.financial)).statusCode).toBe(409);
    const [row] = await server.rows<{ version: number }>(
      sql`select version from application_steps where application_id = ${id} and step = 'financial'`,
    );
    expect(row!.version).toBe(1);
    const [audit] = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from audit_events where entity_id = ${String(id)} and action = 'stepSaved'`,
    );
    expect(audit!.n).toBe(2);
  });

  it('a replay gets the stored refusal too (400 and 409 are answers about the request)', async () => {
    const headers = key();
    const bad = await a.create(lawyer, { journeyData: { personal: { email: 'x@y.test' } } }, headers);
    expect(bad.statusCode).toBe(400);
    const replay = await a.create(lawyer, { journeyData: { personal: { email: 'x@y.test' } } }, headers);
    expect(replay.statusCode).toBe(400);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(bad.json());
  });

  it('answers 400 idempotencyKeyReused for the same key with another request', async () => {
    const headers = key();
    const email = freshEmail();
    expect((await a.create(lawyer, { journeyData: { personal: personal(email) } }, headers)).statusCode).toBe(201);
    const before = await count(server, 'applications');
    const other = await a.create(lawyer, { journeyData: { personal: personal(freshEmail()) } }, headers);
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({ error: 'idempotencyKeyReused' });
    // Another path with the same key is another request as well.
    const elsewhere = await a.save(lawyer, 'financial', 1, 0, validSteps.financial, headers);
    expect(elsewhere.json()).toEqual({ error: 'idempotencyKeyReused' });
    expect(await count(server, 'applications')).toBe(before);
  });

  it('keeps keys per user', async () => {
    const headers = key();
    const { id } = (await a.create(lawyer, { journeyData: { personal: personal(freshEmail()) } }, headers)).json();
    // The admin's request with the same key is the admin's own (and is refused on its own merits).
    const res = await a.submit(admin, id, headers);
    expect(res.statusCode).toBe(403);
  });

  it('does not keep a refusal about the caller: a 403 can be retried with the same key', async () => {
    const headers = key();
    const { id } = (await a.create(lawyer, { journeyData: { personal: personal(freshEmail()) } })).json();
    expect((await a.submit(admin, id, headers)).statusCode).toBe(403);
    const [row] = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from idempotency_keys where key = ${headers['Idempotency-Key']}`,
    );
    expect(row!.n).toBe(0);
  });

  it('concurrent identical requests create once; the others wait or replay', async () => {
    const email = freshEmail();
    const headers = key();
    const body = { journeyData: { personal: personal(email) } };
    const before = await count(server, 'applications');
    const sibling = await server.sibling();
    const answers = await Promise.all([
      a.create(lawyer, body, headers),
      sibling.call({ method: 'POST', url: '/api/applications/create', payload: body, token: lawyer, headers }),
      a.create(lawyer, body, headers),
      sibling.call({ method: 'POST', url: '/api/applications/create', payload: body, token: lawyer, headers }),
    ]);
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const r of answers) {
      if (r.statusCode === 409) expect(r.json()).toEqual({ error: 'inProgress' });
      else expect(r.statusCode, r.body).toBe(201);
    }
    const created = answers.filter((r) => r.statusCode === 201).map((r) => r.json().id);
    expect(new Set(created).size).toBe(1);
    expect(await count(server, 'applications')).toBe(before + 1);
    expect(await emailsTo(email)).toBe(1);
    // Once the first has finished, every replay gets its answer.
    const late = await a.create(lawyer, body, headers);
    expect(late.statusCode).toBe(201);
    expect(late.json().id).toBe(created[0]);
  });

  it('answers 409 inProgress while the first request runs, and takes over a claim left by a dead process', async () => {
    const userId = (await a.get('/api/auth', lawyer)).json().id as number;
    const { id } = (await a.create(lawyer, { journeyData: { personal: personal(freshEmail()) } })).json();
    const body = { applicationId: id, baseVersion: 0, journeyData: { financial: validSteps.financial } };
    const claimed = async (k: string, age: string) => {
      // What the first request's claim looks like: same hash, no answer yet.
      const probe = await a.save(lawyer, 'financial', id, 0, validSteps.financial, { 'Idempotency-Key': `probe-${k}` });
      expect(probe.statusCode).toBeLessThan(500);
      const [row] = await server.rows<{ request_hash: string }>(
        sql`select request_hash from idempotency_keys where key = ${`probe-${k}`}`,
      );
      await server.rows(sql`delete from application_steps where application_id = ${id} and step = 'financial'`);
      await server.rows(sql`insert into idempotency_keys (user_id, key, method, path, request_hash, created_at)
        values (${userId}, ${k}, 'POST', '/api/applications/update/financial', ${row!.request_hash}, now() - ${age}::interval)`);
    };
    await claimed('running', '1 second');
    const waiting = await a.post('/api/applications/update/financial', body, lawyer, { 'Idempotency-Key': 'running' });
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json()).toEqual({ error: 'inProgress' });
    await claimed('abandoned', '1 hour');
    const takenOver = await a.post('/api/applications/update/financial', body, lawyer, { 'Idempotency-Key': 'abandoned' });
    expect(takenOver.statusCode, takenOver.body).toBe(200);
    const replay = await a.post('/api/applications/update/financial', body, lawyer, { 'Idempotency-Key': 'abandoned' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('a replayed submit answers the first result instead of a conflict', async () => {
    const { id } = (await a.create(lawyer, { journeyData: { personal: personal(freshEmail()) } })).json();
    for (const step of ['case', 'financial', 'asset', 'independent'] as const)
      await a.save(lawyer, step, id, 0, validSteps[step]);
    const headers = key();
    const first = await a.submit(lawyer, id, headers);
    const replay = await a.submit(lawyer, id, headers);
    expect(first.statusCode).toBe(200);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    expect((await a.submit(lawyer, id, key())).statusCode).toBe(409);
  });
});
