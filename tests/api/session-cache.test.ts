import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LISTENER_APPLICATION_NAME } from '../../src/server/db/notifications';
import { buildFirmAdmin, buildLawyer, buildUser, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';

/**
 * Sessions kept in memory by each server (docs/decisions.md 610-612): two servers on one database
 * (on PostgreSQL each with its own connections, as two processes; on the embedded database two
 * apps on the one database), a change made through either, or straight in the database, refuses
 * the very next request in the other.
 */
const postgres = process.env.API_TEST_DB === 'postgres';

let server: TestServer;
let other: Pick<TestServer, 'call'>;

beforeAll(async () => {
  server = await startTestServer();
  other = await server.sibling();
});

afterAll(async () => {
  await server?.close();
});

const me = (target: Pick<TestServer, 'call'>, token: string) => target.call({ method: 'GET', url: '/api/auth', token });

/** Both servers have the session in memory: each answered it once already. */
async function warm(token: string): Promise<void> {
  for (const target of [server, other, server, other]) expect((await me(target, token)).statusCode).toBe(200);
}

async function newSession(role: 'customer' | 'admin' = 'customer') {
  const user = await buildUser(server.db, { role });
  const token = await signInAs(server, user);
  await warm(token);
  return { user, token };
}

describe('a change in one server refuses the next request in the other', () => {
  it('signing out', async () => {
    const { token } = await newSession();
    expect((await server.call({ method: 'DELETE', url: '/api/auth', token })).statusCode).toBe(204);
    expect((await me(other, token)).statusCode).toBe(401);
    expect((await me(server, token)).statusCode).toBe(401);
  });

  it('a session revoked, or the account disabled, straight in the database (no code path of the app)', async () => {
    const revoked = await newSession();
    await server.rows(sql`update sessions set revoked_at = now() where user_id = ${revoked.user.userId}`);
    expect((await me(other, revoked.token)).statusCode).toBe(401);
    expect((await me(server, revoked.token)).statusCode).toBe(401);

    const disabled = await newSession();
    await server.rows(sql`update users set status = 'disabled' where id = ${disabled.user.userId}`);
    expect((await me(other, disabled.token)).statusCode).toBe(401);
    expect((await me(server, disabled.token)).statusCode).toBe(401);
  });

  it('the role changed: the next request carries the new one', async () => {
    const { user, token } = await newSession('admin');
    await server.rows(sql`update users set role = 'root' where id = ${user.userId}`);
    expect((await me(other, token)).json()).toMatchObject({ id: user.userId, role: 'root' });
    expect((await me(server, token)).json()).toMatchObject({ id: user.userId, role: 'root' });
  });

  it('a lawyer deleted by the firm in one server', async () => {
    const { firmId, ...firmAdmin } = await buildFirmAdmin(server.db);
    const lawyer = await buildLawyer(server.db, { firmId });
    const firmToken = await signInAs(server, firmAdmin);
    const token = await signInAs(server, lawyer);
    await warm(token);
    expect((await me(other, token)).json()).toMatchObject({ lawyerId: lawyer.id });
    expect((await server.call({ method: 'DELETE', url: `/api/lawyers/${lawyer.id}`, token: firmToken })).statusCode).toBe(204);
    expect((await me(other, token)).statusCode).toBe(401);
  });

  it('a password changed through a reset link ends every session, in every server', async () => {
    const { user, token } = await newSession();
    const second = await signInAs(server, user);
    await warm(second);
    await server.call({ method: 'POST', url: '/api/users/reset', payload: { login: user.email } });
    const mailbox = await server.call({ method: 'GET', url: '/api/dev/mailbox' });
    const link = (mailbox.json().emails as { to: string; links: string[] }[])
      .find((email) => email.to === user.email)
      ?.links.find((each) => /\/reset\/validate\//.test(each));
    expect(link).toBeDefined();
    const reset = await other.call({
      method: 'POST',
      url: '/api/users/reset/update',
      payload: { token: link!.split('/').pop(), login: user.email, password: 'Changed-pass-1' },
    });
    expect(reset.statusCode).toBe(200);
    for (const old of [token, second]) {
      expect((await me(server, old)).statusCode).toBe(401);
      expect((await me(other, old)).statusCode).toBe(401);
    }
    expect((await me(server, reset.json().token)).statusCode).toBe(200);
  });
});

describe('idle timeout and activity, with the session in memory', () => {
  it('activity is written again after a minute; a session idle past the timeout is refused', async () => {
    const { user, token } = await newSession();
    const before = await lastSeen(user.userId);
    // The server's clock a minute on: the session in memory was last written over a minute ago.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect((await me(other, token)).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    const written = await lastSeen(user.userId);
    expect(written).not.toBe(before);
    // Within the minute since it was written: nothing is written.
    expect((await me(other, token)).statusCode).toBe(200);
    expect(await lastSeen(user.userId)).toBe(written);

    // Idle past the timeout (activity set back in the database): refused by both.
    const idle = await newSession();
    await server.rows(sql`update sessions set last_seen_at = now() - interval '31 hours' where user_id = ${idle.user.userId}`);
    expect((await me(other, idle.token)).statusCode).toBe(401);
    expect((await me(server, idle.token)).statusCode).toBe(401);
  });
});

async function lastSeen(userId: number): Promise<string> {
  const [row] = await server.rows<{ seen: string }>(
    sql`select last_seen_at::text as seen from sessions where user_id = ${userId}`,
  );
  return row!.seen;
}

describe.runIf(postgres)('while the listening connection is down (PostgreSQL)', () => {
  it('memory is not read: a session revoked meanwhile is refused; it listens again afterwards', async () => {
    const { user, token } = await newSession();
    const listeners = sql`select count(*)::int as n from pg_stat_activity where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`;
    expect((await server.rows<{ n: number }>(listeners))[0]!.n).toBe(2);
    await server.rows(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
    );
    // Its notification goes nowhere: no server listens now.
    await server.rows(sql`update sessions set revoked_at = now() where user_id = ${user.userId}`);
    expect((await me(other, token)).statusCode).toBe(401);
    expect((await me(server, token)).statusCode).toBe(401);

    await vi.waitFor(async () => expect((await server.rows<{ n: number }>(listeners))[0]!.n).toBe(2), { timeout: 10_000 });
    const again = await newSession();
    await server.rows(sql`update sessions set revoked_at = now() where user_id = ${again.user.userId}`);
    expect((await me(other, again.token)).statusCode).toBe(401);
  });
});
