import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildLawyer, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';
import { api, freshEmail, joinAsClient, personal, snapshot, validSteps } from './applications-fixtures';

// Each party attests only for itself: the client confirmation comes only from the client, the
// lawyer's consent and authority only from the lawyer, on every save and so at submit.
let server: TestServer;
let a: ReturnType<typeof api>;
let lawyer: string;

beforeAll(async () => {
  server = await startTestServer();
  a = api(server);
  lawyer = await signInAs(server, await buildLawyer(server.db));
});
afterAll(async () => {
  await server.close();
});

/** A new application of the test's lawyer whose client has joined. */
async function joined() {
  const email = freshEmail();
  const created = await a.create(lawyer, { journeyData: { personal: personal(email) } });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as number;
  return { id, client: await joinAsClient(server, email) };
}

async function storedStep(id: number, step: string) {
  const [row] = await server.rows<{ data: Record<string, unknown>; version: number }>(
    sql`select data, version from application_steps where application_id = ${id} and step = ${step}`,
  );
  return row;
}

describe('who answers what', () => {
  it("refuses the lawyer's save of the client's own confirmation, storing nothing", async () => {
    const { id } = await joined();
    const before = await snapshot(server);
    const res = await a.save(lawyer, 'client', id, 0, { clientAgree: true });
    expect(res.statusCode, res.body).toBe(403);
    expect(await snapshot(server)).toEqual(before);
    expect(await storedStep(id, 'client')).toBeUndefined();
  });

  it("refuses the client's ticks for the lawyer's consent and authority, storing nothing", async () => {
    const { id, client } = await joined();
    const before = await snapshot(server);
    const res = await a.save(client, 'independent', id, 0, { useOwnSolicitor: true, consent: true, authorised: true });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: 'validation', fields: { consent: 'notYours', authorised: 'notYours' } });
    expect(await snapshot(server)).toEqual(before);
  });

  it("keeps the lawyer's ticks when the client saves the step without them", async () => {
    const { id, client } = await joined();
    expect((await a.save(lawyer, 'independent', id, 0, validSteps.independent)).statusCode).toBe(200);
    const res = await a.save(client, 'independent', id, 1, { useOwnSolicitor: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.independent).toEqual({ useOwnSolicitor: true, consent: true, authorised: true });
    expect((await storedStep(id, 'independent'))?.data).toEqual({ useOwnSolicitor: true, consent: true, authorised: true });
    // Sending them unchanged is fine; taking them back is the lawyer's alone.
    expect(
      (await a.save(client, 'independent', id, 2, { useOwnSolicitor: true, consent: true, authorised: true })).statusCode,
    ).toBe(200);
    const untick = await a.save(client, 'independent', id, 3, { useOwnSolicitor: true, consent: false, authorised: true });
    expect(untick.statusCode, untick.body).toBe(400);
    expect(untick.json().fields).toEqual({ consent: 'notYours' });
  });

  it("does not let the lawyer's submit pass on anything the client gave for the lawyer", async () => {
    const { id, client } = await joined();
    for (const step of ['case', 'financial', 'asset'] as const) {
      const saved = await a.save(lawyer, step, id, 0, validSteps[step]);
      expect(saved.statusCode, saved.body).toBe(200);
    }
    expect((await a.save(client, 'independent', id, 0, { useOwnSolicitor: true })).statusCode).toBe(200);
    const refused = await a.submit(lawyer, id);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual({ error: 'incompleteSteps', fields: { independent: 'required' } });
    // Once the lawyer ticks them, the lawyer's submit goes through.
    expect((await a.save(lawyer, 'independent', id, 1, validSteps.independent)).statusCode).toBe(200);
    const submitted = await a.submit(lawyer, id);
    expect(submitted.statusCode, submitted.body).toBe(200);
  });
});
