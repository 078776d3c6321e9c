import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { APPLICATION_CREATES_PER_WINDOW } from '../../src/shared/rules/rate-limits';
import { api, freshEmail, personal, secondFirm } from './applications-fixtures';
import { buildClient, buildLawyer, buildUser, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
let a: ReturnType<typeof api>;
let lawyer: string;
let lawyerId: number;
let root: string;
/** An account that exists already, so a create inviting it is refused. */
let takenEmail: string;

beforeAll(async () => {
  server = await startTestServer();
  a = api(server);
  const ownLawyer = await buildLawyer(server.db);
  lawyer = await signInAs(server, ownLawyer);
  lawyerId = ownLawyer.id;
  root = await signInAs(server, await buildUser(server.db, { role: 'root' }));
  takenEmail = (await buildClient(server.db)).email;
});
afterAll(async () => {
  await server.close();
});

const body = (email = freshEmail(), lawyerId?: number) => ({
  ...(lawyerId ? { lawyerId } : {}),
  journeyData: { personal: personal(email) },
});
const invitations = async () => (await server.rows<{ n: number }>(sql`select count(*)::int as n from emails`))[0]!.n;

describe('creating applications is rate-limited per lawyer', () => {
  it(`allows ${APPLICATION_CREATES_PER_WINDOW} an hour, then answers 429 with Retry-After, in every process`, async () => {
    // A create refused for its own reasons (the email is taken) does not count.
    expect((await a.create(lawyer, body(takenEmail))).statusCode).toBe(400);
    for (let i = 0; i < APPLICATION_CREATES_PER_WINDOW; i++) {
      const res = await a.create(lawyer, body());
      expect(res.statusCode, `create ${i + 1}: ${res.body}`).toBe(201);
    }
    const sent = await invitations();
    const sibling = await server.sibling();
    for (const call of [server.call, sibling.call]) {
      const res = await call({ method: 'POST', url: '/api/applications/create', token: lawyer, payload: body() });
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json()).toMatchObject({ error: 'tooManyAttempts' });
      const wait = Number(res.headers['retry-after']);
      expect(wait).toBeGreaterThan(60 * 59);
      expect(wait).toBeLessThanOrEqual(60 * 60);
      expect(res.json().retryAfter).toBe(wait);
    }
    expect(await invitations()).toBe(sent);
  });

  it('counts each lawyer, and staff creating for a lawyer, on their own', async () => {
    const other = await secondFirm(server);
    expect((await a.create(other.lawyerToken, body())).statusCode).toBe(201);
    expect((await a.create(root, body(freshEmail(), lawyerId))).statusCode).toBe(201);
  });
});
