import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { demoAccounts } from '../../src/server/seed/seed';
import { startTestServer, type TestServer } from './harness';
import { api, badSteps, freshEmail, personal, validSteps } from './applications-fixtures';

// POST /batch (docs/decisions/702-batch-call.md): each item is the call it names, run as if sent
// alone, in order; only the step save may be batched.

let server: TestServer;
let a: ReturnType<typeof api>;
let lawyer: string;

beforeAll(async () => {
  server = await startTestServer({}, { seed: true });
  a = api(server);
  lawyer = await server.signIn(demoAccounts.lawyer);
});
afterAll(async () => {
  await server.close();
});

interface Item {
  method: 'POST';
  path: string;
  idempotencyKey: string;
  body: unknown;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

function saveItem(step: string, applicationId: number, baseVersion: number, data: unknown, key = randomUUID()): Item {
  return {
    method: 'POST',
    path: `/applications/update/${step}`,
    idempotencyKey: key,
    body: { applicationId, baseVersion, journeyData: { [step]: data } },
  };
}

const batch = (token: string | undefined, requests: unknown[]) =>
  server.call({ method: 'POST', url: '/api/batch', payload: { requests }, ...(token ? { token } : {}) });

async function newApplication(): Promise<number> {
  const created = await a.create(lawyer, { journeyData: { personal: personal(freshEmail()) } });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as { id: number }).id;
}

async function stepRow(id: number, step: string) {
  const [row] = await server.rows<{ version: number }>(
    sql`select version from application_steps where application_id = ${id} and step = ${step}`,
  );
  return row;
}

async function audits(id: number): Promise<number> {
  const [row] = await server.rows<{ n: number }>(
    sql`select count(*)::int as n from audit_events where entity_id = ${String(id)} and action = 'stepSaved'`,
  );
  return row!.n;
}

describe('POST /batch', () => {
  it('answers 401 without a session, and runs nothing', async () => {
    const id = await newApplication();
    const response = await batch(undefined, [saveItem('financial', id, 0, validSteps.financial)]);
    expect(response.statusCode).toBe(401);
    expect(await stepRow(id, 'financial')).toBeUndefined();
  });

  it('runs each save in order as its own call: stored once, audited once, answered as alone', async () => {
    const first = await newApplication();
    const second = await newApplication();
    const items = [
      saveItem('case', first, 0, validSteps.case),
      saveItem('case', second, 0, validSteps.case),
      saveItem('financial', first, 0, validSteps.financial),
    ];
    const response = await batch(lawyer, items);
    expect(response.statusCode, response.body).toBe(200);
    const { answers } = response.json() as { answers: Answer[] };
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers[0]!.body).toEqual({ data: { case: validSteps.case }, version: 1 });
    expect(answers[2]!.body).toEqual({ data: { financial: validSteps.financial }, version: 1 });
    expect((await stepRow(first, 'case'))!.version).toBe(1);
    expect((await stepRow(second, 'case'))!.version).toBe(1);
    // One audit row for the created personal step, one for each save.
    expect(await audits(first)).toBe(3);
    expect(await audits(second)).toBe(2);

    // The same key sent alone later answers the stored answer; the same batch again replays them all.
    const alone = await a.save(lawyer, 'case', first, 0, validSteps.case, { 'Idempotency-Key': items[0]!.idempotencyKey });
    expect(alone.statusCode).toBe(200);
    expect(alone.headers['idempotent-replayed']).toBe('true');
    expect(alone.json()).toEqual(answers[0]!.body);
    const again = (await batch(lawyer, items)).json() as { answers: Answer[] };
    expect(again.answers.map((answer) => [answer.status, answer.headers['idempotent-replayed']])).toEqual([
      [200, 'true'],
      [200, 'true'],
      [200, 'true'],
    ]);
    expect((await stepRow(first, 'case'))!.version).toBe(1);
    expect(await audits(first)).toBe(3);
  });

  it('a save sent alone first is replayed through a batch with its key', async () => {
    const id = await newApplication();
    const key = randomUUID();
    const alone = await a.save(lawyer, 'financial', id, 0, validSteps.financial, { 'Idempotency-Key': key });
    expect(alone.statusCode).toBe(200);
    const { answers } = (await batch(lawyer, [saveItem('financial', id, 0, validSteps.financial, key)])).json() as {
      answers: Answer[];
    };
    expect(answers).toEqual([{ status: 200, headers: { 'idempotent-replayed': 'true' }, body: alone.json() }]);
    expect(await audits(id)).toBe(2);
  });

  it('a refused or conflicting item is answered as alone, and the next items still run', async () => {
    const id = await newApplication();
    expect((await a.save(lawyer, 'case', id, 0, validSteps.case)).statusCode).toBe(200);
    const { answers } = (
      await batch(lawyer, [
        saveItem('financial', id, 0, badSteps.financial!.data),
        saveItem('case', id, 0, validSteps.case),
        saveItem('asset', id, 0, validSteps.asset),
      ])
    ).json() as { answers: Answer[] };
    expect(answers.map((answer) => answer.status)).toEqual([400, 409, 200]);
    expect(answers[0]!.body).toMatchObject({ error: 'validation', fields: badSteps.financial!.fields });
    expect(answers[1]!.body).toMatchObject({ error: 'conflict', current: { version: 1 } });
    expect(await stepRow(id, 'financial')).toBeUndefined();
    expect((await stepRow(id, 'asset'))!.version).toBe(1);
    // The refusal is stored for its key, as it is for a call sent alone.
    const replay = (await batch(lawyer, [saveItem('financial', id, 0, badSteps.financial!.data, randomUUID())])).json() as {
      answers: Answer[];
    };
    expect(replay.answers[0]!.status).toBe(400);
  });

  it('a save of an application the caller cannot see is 404 for that item alone', async () => {
    const id = await newApplication();
    const client = await server.signIn(demoAccounts.customer);
    const { answers } = (await batch(client, [saveItem('case', id, 0, validSteps.case)])).json() as { answers: Answer[] };
    expect([403, 404]).toContain(answers[0]!.status);
    expect(await stepRow(id, 'case')).toBeUndefined();
  });

  it('refuses any call but the step save, and runs nothing of that batch', async () => {
    const id = await newApplication();
    const response = await batch(lawyer, [
      saveItem('case', id, 0, validSteps.case),
      { method: 'POST', path: '/applications/create', idempotencyKey: randomUUID(), body: {} },
      { method: 'POST', path: '/batch', idempotencyKey: randomUUID(), body: { requests: [] } },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'validation',
      fields: { 'requests.1.path': 'invalid', 'requests.2.path': 'invalid' },
    });
    expect(await stepRow(id, 'case')).toBeUndefined();
  });

  it('is bounded: at most 25 items, an item needs its own key, the whole call at most the body limit', async () => {
    const id = await newApplication();
    const many = Array.from({ length: 26 }, () => saveItem('case', id, 0, validSteps.case));
    expect((await batch(lawyer, many)).statusCode).toBe(400);
    const { idempotencyKey: _key, ...keyless } = saveItem('case', id, 0, validSteps.case);
    expect((await batch(lawyer, [keyless])).statusCode).toBe(400);
    const big = saveItem('case', id, 0, { ...validSteps.case, caseRef: 'x'.repeat(1024 * 1024) });
    expect((await batch(lawyer, [big])).statusCode).toBe(413);
    expect(await stepRow(id, 'case')).toBeUndefined();
  });

  it('stops after an item the server could not answer (5xx): the items after it are not run', async () => {
    const id = await newApplication();
    server.refuseWork();
    const response = await batch(lawyer, [
      saveItem('case', id, 0, validSteps.case),
      saveItem('financial', id, 0, validSteps.financial),
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const { answers } = response.json() as { answers: Answer[] };
    expect(answers).toHaveLength(1);
    expect(answers[0]!.status).toBeGreaterThanOrEqual(500);
  });
});
