import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness';
import { buildApplication, buildClient, buildLawyer, buildUser, signInAs, type BuiltUser } from './factories';
import { api, personal, validSteps } from './applications-fixtures';

/**
 * A write refused because the application's status moved on meanwhile says who moved it and when
 * (`details.statusChange`, docs/decisions.md 431): the save of a step (409 notEditable) and a
 * status change such as a second submit (409 conflict).
 */

let server: TestServer;
let a: ReturnType<typeof api>;
let lawyer: Awaited<ReturnType<typeof buildLawyer>>;
let admin: BuiltUser;
const token = {} as Record<'lawyer' | 'admin' | 'otherAdmin', string>;

beforeAll(async () => {
  server = await startTestServer();
  a = api(server);
  lawyer = await buildLawyer(server.db, { firstName: 'Laura', surname: 'Bennett' });
  admin = await buildUser(server.db, { role: 'admin', firstName: 'Ada', surname: 'Staff' });
  token.lawyer = await signInAs(server, lawyer);
  token.admin = await signInAs(server, admin);
  token.otherAdmin = await signInAs(server, await buildUser(server.db, { role: 'admin' }));
});

afterAll(async () => {
  await server?.close();
});

/** An application both parties have completed (the client's confirmation included), not yet submitted. */
async function completeApplication() {
  const client = await buildClient(server.db, { firstName: 'Chris', surname: 'Walker' });
  const application = await buildApplication(server.db, {
    lawyerId: lawyer.id,
    clientId: client.id,
    status: 'created',
    steps: { personal: personal(client.email, { firstName: 'Chris', lastName: 'Walker' }), ...validSteps },
  });
  return { id: application.id, clientToken: await signInAs(server, client) };
}

/** When the audit says the application reached its status (the time the refusal must carry). */
async function changedAt(id: number, status: string): Promise<string> {
  const [row] = await server.rows<{ at: Date | string }>(
    sql`select at from audit_events where entity_type = 'application' and entity_id = ${String(id)}
        and to_state ->> 'status' = ${status} order by at desc, id desc limit 1`,
  );
  return new Date(row!.at).toISOString();
}

describe('a refusal because the status moved on says who moved it and when', () => {
  it('names the client who submitted meanwhile, on the lawyer’s save and on the lawyer’s submit', async () => {
    const { id, clientToken } = await completeApplication();
    const submitted = await a.submit(clientToken, id);
    expect(submitted.statusCode, submitted.body).toBe(200);
    const at = await changedAt(id, 'submitted');

    const save = await a.save(token.lawyer, 'financial', id, 1, { ...validSteps.financial, monthlyIncome: 2600 });
    expect(save.statusCode).toBe(409);
    expect(save.json()).toEqual({
      error: 'notEditable',
      details: { statusChange: { status: 'submitted', at, by: 'client', name: 'Chris Walker' } },
    });

    const submit = await a.submit(token.lawyer, id);
    expect(submit.statusCode).toBe(409);
    expect(submit.json()).toEqual({
      error: 'conflict',
      details: { statusChange: { status: 'submitted', at, by: 'client', name: 'Chris Walker' } },
    });
  });

  it('names the lawyer to the client, and says “you” to the one who made the change', async () => {
    const { id, clientToken } = await completeApplication();
    expect((await a.submit(token.lawyer, id)).statusCode).toBe(200);
    const at = await changedAt(id, 'submitted');

    const clientSave = await a.save(clientToken, 'financial', id, 1, validSteps.financial);
    expect(clientSave.json()).toEqual({
      error: 'notEditable',
      details: { statusChange: { status: 'submitted', at, by: 'lawyer', name: 'Laura Bennett' } },
    });
    // The lawyer's own second device: no name, it was them.
    const ownSave = await a.save(token.lawyer, 'case', id, 1, validSteps.case);
    expect(ownSave.json()).toEqual({ error: 'notEditable', details: { statusChange: { status: 'submitted', at, by: 'you' } } });
  });

  it('never names the provider’s staff, to the parties or to other staff', async () => {
    const { id, clientToken } = await completeApplication();
    expect((await a.submit(clientToken, id)).statusCode).toBe(200);
    const rejected = await a.post(
      '/api/applications/state/update',
      { applicationId: id, state: 'providerRejected' },
      token.admin,
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
    const at = await changedAt(id, 'providerRejected');
    const provider = { statusChange: { status: 'providerRejected', at, by: 'provider' } };

    const save = await a.save(token.lawyer, 'case', id, 1, validSteps.case);
    expect(save.json()).toEqual({ error: 'notEditable', details: provider });
    const accept = await a.post(
      '/api/applications/state/update',
      { applicationId: id, state: 'providerAccepted' },
      token.otherAdmin,
    );
    expect(accept.statusCode).toBe(409);
    expect(accept.json()).toEqual({ error: 'conflict', details: provider });
    expect(JSON.stringify(accept.json())).not.toContain('Ada');
  });

  it('says nothing more when the change is not known (a status set before changes were audited)', async () => {
    const client = await buildClient(server.db);
    const application = await buildApplication(server.db, {
      lawyerId: lawyer.id,
      clientId: client.id,
      status: 'submitted',
      steps: { financial: validSteps.financial },
    });
    const save = await a.save(token.lawyer, 'financial', application.id, 1, validSteps.financial);
    expect(save.statusCode).toBe(409);
    expect(save.json()).toEqual({ error: 'notEditable' });
  });
});
