import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditEvents, sessions, userTokens, users } from '../../src/server/db/schema';
import { demoAccounts } from '../../src/server/seed/seed';
import { startTestServer, type TestServer, DEMO_PASSWORD } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { seed: true });
});
afterAll(async () => {
  await server.close();
});

const post = (url: string, payload: unknown, token?: string) =>
  server.call({ method: 'POST', url, payload: payload as object, token });

/** The newest link in the development mailbox that matches. */
async function linkFromMailbox(to: string, pattern: RegExp): Promise<string> {
  const res = await server.call({ method: 'GET', url: '/api/dev/mailbox' });
  expect(res.statusCode).toBe(200);
  const email = (res.json().emails as { to: string; links: string[] }[]).find(
    (e) => e.to === to && e.links.some((l) => pattern.test(l)),
  );
  if (!email) throw new Error(`no email to ${to} with a link like ${pattern}`);
  return email.links.find((l) => pattern.test(l))!;
}

describe('POST /auth (sign in)', () => {
  it('signs each demo role in and returns the session user with the role’s permissions', async () => {
    for (const [role, email] of Object.entries(demoAccounts)) {
      const res = await post('/api/auth', { login: email, password: DEMO_PASSWORD });
      expect(res.statusCode, email).toBe(200);
      const body = res.json();
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(body.user).toMatchObject({ email, role });
      expect(body.user.permissions.length).toBeGreaterThan(0);
    }
  });

  it('accepts the email in any case and with spaces around it', async () => {
    const res = await post('/api/auth', { login: '  Lawyer@Demo.Test ', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ role: 'lawyer', lawyerId: expect.any(Number), firmId: expect.any(Number) });
  });

  it('answers a wrong password and an unknown account alike, with 401 invalidCredentials', async () => {
    const wrong = await post('/api/auth', { login: demoAccounts.admin, password: 'Wrong-pass-1' });
    const unknown = await post('/api/auth', { login: 'nobody@demo.test', password: 'Wrong-pass-1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'invalidCredentials' });
    expect(unknown.json()).toEqual({ error: 'invalidCredentials' });
  });

  it('refuses bad input with field codes and never a 500', async () => {
    const cases: [unknown, Record<string, string>][] = [
      [{}, { login: 'required', password: 'required' }],
      [{ login: 'not-an-email', password: 'x' }, { login: 'email' }],
      [{ login: 'a@b.co', password: 'x'.repeat(500) }, { password: 'tooLong' }],
      [{ login: 'a@b.co', password: 'x', extra: 1 }, { extra: 'unknownField' }],
      [
        { login: 42, password: true },
        { login: 'invalid', password: 'invalid' },
      ],
    ];
    for (const [payload, fields] of cases) {
      const res = await post('/api/auth', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation', fields });
    }
    const malformed = await server.call({
      method: 'POST',
      url: '/api/auth',
      payload: '{"login":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('does not let an invited account without a password sign in', async () => {
    const res = await post('/api/auth', { login: 'priya.shah@demo.test', password: '' });
    expect(res.statusCode).toBe(400);
    const res2 = await post('/api/auth', { login: 'priya.shah@demo.test', password: DEMO_PASSWORD });
    expect(res2.statusCode).toBe(401);
  });
});

describe('sign-in rate limit', () => {
  it('blocks an account after 5 failures with 429 and Retry-After, counted in the database', async () => {
    const login = demoAccounts.firm;
    for (let i = 0; i < 5; i++) expect((await post('/api/auth', { login, password: `Wrong-${i}-A` })).statusCode).toBe(401);
    const blocked = await post('/api/auth', { login, password: DEMO_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ error: 'tooManyAttempts', retryAfter: expect.any(Number) });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const key = `sign-in:account-address:${login}:127.0.0.1`;
    const [row] = await server.rows<{ count: number }>(sql`select count from rate_limits where key = ${key}`);
    expect(row!.count).toBe(5);
    // A stranger elsewhere cannot lock the account: from another address it still signs in.
    const elsewhere = await server.call({
      method: 'POST',
      url: '/api/auth',
      payload: { login, password: DEMO_PASSWORD },
      remoteAddress: '127.0.0.8',
    });
    expect(elsewhere.statusCode).toBe(200);
    // Another account from another address is not affected.
    const other = await server.call({
      method: 'POST',
      url: '/api/auth',
      payload: { login: demoAccounts.root, password: DEMO_PASSWORD },
      remoteAddress: '127.0.0.9',
    });
    expect(other.statusCode).toBe(200);
    // Once the window has passed, the account may try again.
    await server.db.execute(sql`update rate_limits set window_started_at = now() - interval '1 hour' where key = ${key}`);
    expect((await post('/api/auth', { login, password: DEMO_PASSWORD })).statusCode).toBe(200);
  });

  it('blocks an address after 20 failures across accounts', async () => {
    const remoteAddress = '127.0.0.77';
    for (let i = 0; i < 20; i++) {
      const res = await server.call({
        method: 'POST',
        url: '/api/auth',
        payload: { login: `nobody${i}@demo.test`, password: 'Wrong-pass-1' },
        remoteAddress,
      });
      expect(res.statusCode).toBe(401);
    }
    const res = await server.call({
      method: 'POST',
      url: '/api/auth',
      payload: { login: demoAccounts.admin, password: DEMO_PASSWORD },
      remoteAddress,
    });
    expect(res.statusCode).toBe(429);
  });
});

describe('sign-in limits under load and from many places', () => {
  it('lets no more than 5 of 15 parallel wrong attempts reach the password check', async () => {
    const remoteAddress = '127.0.0.31';
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        server.call({
          method: 'POST',
          url: '/api/auth',
          payload: { login: demoAccounts.root, password: `Wrong-${i}-pass` },
          remoteAddress,
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(10);
  });

  it('blocks an account guessed at from many addresses after 50 failures', async () => {
    await server.db
      .execute(sql`insert into rate_limits (key, window_started_at, count) values (${`sign-in:account:${demoAccounts.customer}`}, now(), 50)
      on conflict (key) do update set count = 50, window_started_at = now()`);
    const res = await server.call({
      method: 'POST',
      url: '/api/auth',
      payload: { login: demoAccounts.customer, password: 'Wrong-pass-1' },
      remoteAddress: '127.0.0.41',
    });
    expect(res.statusCode).toBe(429);
    await server.db.execute(sql`delete from rate_limits where key = ${`sign-in:account:${demoAccounts.customer}`}`);
  });

  it('refused attempts leave no trace: no new counters, and the account’s own count untouched', async () => {
    const remoteAddress = '127.0.0.61';
    const victim = demoAccounts.admin;
    const count = async (key: string) =>
      (await server.rows<{ count: number }>(sql`select count from rate_limits where key = ${key}`))[0]?.count ?? 0;
    for (let i = 0; i < 5; i++)
      await server.call({
        method: 'POST',
        url: '/api/auth',
        payload: { login: victim, password: `Wrong-${i}-pass` },
        remoteAddress,
      });
    const accountBefore = await count(`sign-in:account:${victim}`);
    const rowsBefore = (await server.rows<{ n: number }>(sql`select count(*)::int as n from rate_limits`))[0]!.n;
    const refused = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        server.call({ method: 'POST', url: '/api/auth', payload: { login: victim, password: `Again-${i}-pass` }, remoteAddress }),
      ),
    );
    expect(refused.every((r) => r.statusCode === 429)).toBe(true);
    expect(await count(`sign-in:account:${victim}`)).toBe(accountBefore);
    // Fill the address, then try new accounts from it: nothing new is stored.
    for (let i = 0; i < 15; i++)
      await server.call({
        method: 'POST',
        url: '/api/auth',
        payload: { login: `fill${i}@demo.test`, password: 'Wrong-pass-1' },
        remoteAddress,
      });
    const rowsFull = (await server.rows<{ n: number }>(sql`select count(*)::int as n from rate_limits`))[0]!.n;
    for (let i = 0; i < 10; i++) {
      const res = await server.call({
        method: 'POST',
        url: '/api/auth',
        payload: { login: `new${i}@demo.test`, password: 'Wrong-pass-1' },
        remoteAddress,
      });
      expect(res.statusCode).toBe(429);
    }
    expect((await server.rows<{ n: number }>(sql`select count(*)::int as n from rate_limits`))[0]!.n).toBe(rowsFull);
    expect(rowsFull).toBeGreaterThan(rowsBefore);
    // The owner, elsewhere, is not locked out.
    const owner = await server.call({
      method: 'POST',
      url: '/api/auth',
      payload: { login: victim, password: DEMO_PASSWORD },
      remoteAddress: '127.0.0.62',
    });
    expect(owner.statusCode).toBe(200);
  });

  it('a successful sign-in does not use up the address’s allowance', async () => {
    const remoteAddress = '127.0.0.51';
    for (let i = 0; i < 25; i++) {
      const res = await server.call({
        method: 'POST',
        url: '/api/auth',
        payload: { login: demoAccounts.admin, password: DEMO_PASSWORD },
        remoteAddress,
      });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('the session', () => {
  it('GET /auth returns the user of a valid token; 401 without or with a bad one', async () => {
    const token = await server.signIn(demoAccounts.lawyer);
    const me = await server.call({ method: 'GET', url: '/api/auth', token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: demoAccounts.lawyer, role: 'lawyer', name: 'Laura', surname: 'Bennett' });
    expect(Object.keys(me.json()).sort()).toEqual([
      'customerId',
      'email',
      'firmId',
      'id',
      'lawyerId',
      'name',
      'permissions',
      'role',
      'surname',
    ]);
    expect((await server.call({ method: 'GET', url: '/api/auth' })).statusCode).toBe(401);
    expect((await server.call({ method: 'GET', url: '/api/auth', token: 'x'.repeat(43) })).statusCode).toBe(401);
  });

  it('stores only a hash of the token', async () => {
    const token = await server.signIn(demoAccounts.admin);
    const rows = await server.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it('DELETE /auth revokes the session on the server', async () => {
    const token = await server.signIn(demoAccounts.customer);
    const other = await server.signIn(demoAccounts.customer);
    expect((await server.call({ method: 'DELETE', url: '/api/auth', token })).statusCode).toBe(204);
    expect((await server.call({ method: 'GET', url: '/api/auth', token })).statusCode).toBe(401);
    // Signing out ends this session only.
    expect((await server.call({ method: 'GET', url: '/api/auth', token: other })).statusCode).toBe(200);
  });

  it('expires after 30 hours without activity, and activity keeps it alive', async () => {
    const token = await server.signIn(demoAccounts.admin);
    const setIdle = (hours: number) =>
      server.db.execute(sql`update sessions set last_seen_at = now() - ${hours} * interval '1 hour' where revoked_at is null`);
    await setIdle(29);
    const alive = await server.call({ method: 'GET', url: '/api/auth', token });
    expect(alive.statusCode).toBe(200);
    // That request counted as activity: the clock starts again.
    const [seen] = await server.rows<{ fresh: boolean }>(
      sql`select max(last_seen_at) > now() - interval '1 minute' as fresh from sessions`,
    );
    expect(seen!.fresh).toBe(true);
    await setIdle(30.1);
    expect((await server.call({ method: 'GET', url: '/api/auth', token })).statusCode).toBe(401);
  });

  it('writes an audit event for sign-in and sign-out', async () => {
    const token = await server.signIn(demoAccounts.firm);
    await server.call({ method: 'DELETE', url: '/api/auth', token });
    const events = await server.db.select().from(auditEvents).where(eq(auditEvents.entityType, 'session'));
    expect(events.some((e) => e.action === 'signedIn')).toBe(true);
    expect(events.some((e) => e.action === 'signedOut' && (e.toState as { state: string }).state === 'revoked')).toBe(true);
  });
});

describe('sign-up through an invitation', () => {
  const invited = 'daniel.okafor@demo.test';

  it('validates the invitation, then completes it once, and signs the user in', async () => {
    const link = await linkFromMailbox(invited, /\/sign-up-customer\//);
    const uuid = link.split('/').pop()!;
    const valid = await post('/api/users/sign-up/validate', { uuid });
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toEqual({ data: [{ login: invited }] });

    const weak = await post('/api/users/sign-up/complete', { login: invited, password: 'password', uuid });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ error: 'validation', fields: { password: 'empty' } });

    const wrongLogin = await post('/api/users/sign-up/complete', { login: 'someone@else.test', password: 'Str0ng-pass', uuid });
    expect(wrongLogin.json()).toMatchObject({ error: 'invalidToken' });

    const done = await post('/api/users/sign-up/complete', { login: invited, password: 'Str0ng-pass', uuid });
    expect(done.statusCode).toBe(200);
    expect(done.json().user).toMatchObject({ email: invited, role: 'customer', customerId: expect.any(Number) });
    expect((await server.call({ method: 'GET', url: '/api/auth', token: done.json().userToken })).statusCode).toBe(200);

    // Single use.
    expect((await post('/api/users/sign-up/validate', { uuid })).json()).toEqual({ error: 'invalidToken' });
    expect((await post('/api/users/sign-up/complete', { login: invited, password: 'Str0ng-pass2', uuid })).statusCode).toBe(400);
    // The new password works.
    expect((await post('/api/auth', { login: invited, password: 'Str0ng-pass' })).statusCode).toBe(200);
    const [user] = await server.db.select().from(users).where(eq(users.email, invited));
    expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('refuses unknown, malformed and expired invitations', async () => {
    expect((await post('/api/users/sign-up/validate', { uuid: '8d3c1c1e-0000-4000-8000-000000000000' })).json()).toEqual({
      error: 'invalidToken',
    });
    expect((await post('/api/users/sign-up/validate', { uuid: 'not-a-uuid' })).statusCode).toBe(400);
    const link = await linkFromMailbox('emma.clarke@demo.test', /\/sign-up-customer\//);
    const [emma] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, 'emma.clarke@demo.test'));
    await server.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.userId, emma!.id));
    expect((await post('/api/users/sign-up/validate', { uuid: link.split('/').pop() })).json()).toEqual({
      error: 'invalidToken',
    });
  });
});

describe('links are single-use, also under races and after the account is active', () => {
  it('lets only one of two parallel sign-ups through the same invitation succeed', async () => {
    const email = 'tom.hughes@demo.test';
    const uuid = (await linkFromMailbox(email, /\/sign-up-customer\//)).split('/').pop();
    const [a, b] = await Promise.all([
      post('/api/users/sign-up/complete', { login: email, password: 'First-pass-1', uuid }),
      post('/api/users/sign-up/complete', { login: email, password: 'Second-pass-2', uuid }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
  });

  it('an invitation stops working once the account has a password (set through a reset)', async () => {
    const email = 'sarah.mitchell@demo.test';
    const invitation = (await linkFromMailbox(email, /\/sign-up-customer\//)).split('/').pop();
    await post('/api/users/reset', { login: email });
    const token = (await linkFromMailbox(email, /\/reset\/validate\//)).split('/').pop();
    const reset = await post('/api/users/reset/update', { token, login: email, password: 'Own-pass-1' });
    expect(reset.statusCode).toBe(200);
    expect((await post('/api/users/sign-up/validate', { uuid: invitation })).json()).toEqual({ error: 'invalidToken' });
    const hijack = await post('/api/users/sign-up/complete', { login: email, password: 'Other-pass-2', uuid: invitation });
    expect(hijack.json()).toEqual({ error: 'invalidToken' });
    expect((await server.call({ method: 'GET', url: '/api/auth', token: reset.json().token })).statusCode).toBe(200);
  });

  it('an invitation and a reset link of one account used at once: one wins, neither fails', async () => {
    const email = 'olivia.grant@demo.test';
    const invitation = (await linkFromMailbox(email, /\/sign-up-customer\//)).split('/').pop();
    await post('/api/users/reset', { login: email });
    const token = (await linkFromMailbox(email, /\/reset\/validate\//)).split('/').pop();
    const [a, b] = await Promise.all([
      post('/api/users/sign-up/complete', { login: email, password: 'Invite-pass-1', uuid: invitation }),
      post('/api/users/reset/update', { token, login: email, password: 'Reset-pass-1' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
  });

  it('no session is opened with a password that has just been changed', async () => {
    const { createSession } = await import('../../src/server/auth/sessions');
    const [user] = await server.db.select().from(users).where(eq(users.email, demoAccounts.admin));
    expect(await createSession(server.db, user!.id, user!.passwordHash!, {})).toBeDefined();
    expect(await createSession(server.db, user!.id, '$argon2id$v=19$m=19456,t=2,p=1$old$old', {})).toBeUndefined();
  });

  it('an expired reset link is refused', async () => {
    const email = demoAccounts.root;
    await post('/api/users/reset', { login: email });
    const token = (await linkFromMailbox(email, /\/reset\/validate\//)).split('/').pop();
    await server.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.purpose, 'reset'));
    expect((await post('/api/users/reset/validate', { token })).json()).toEqual({ error: 'invalidToken' });
    expect((await post('/api/users/reset/update', { token, login: email, password: 'Late-pass-1' })).json()).toEqual({
      error: 'invalidToken',
    });
  });
});

describe('input the database cannot hold is refused, never a 500', () => {
  it.each([
    [
      'a NUL in a sign-in email',
      { method: 'POST' as const, url: '/api/auth', payload: { login: 'a\u0000b@demo.test', password: 'x' } },
    ],
    ['a NUL in a reset email', { method: 'POST' as const, url: '/api/users/reset', payload: { login: 'a\u0000@demo.test' } }],
    [
      'a NUL in a password',
      { method: 'POST' as const, url: '/api/auth', payload: { login: 'a@demo.test', password: 'Pass\u0000word1' } },
    ],
  ])('%s', async (_name, request) => {
    const res = await server.call(request);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('validation');
  });

  it('refuses out-of-range ids and pages, and a NUL in a search', async () => {
    const token = await server.signIn(demoAccounts.root);
    for (const url of [
      '/api/user/99999999999',
      '/api/users?firmId=99999999999',
      '/api/users?page=99999999999999999999',
      '/api/users?search=%00',
      '/api/user/-1',
      '/api/user/abc',
    ]) {
      const res = await server.call({ method: 'GET', url, token });
      expect(res.statusCode, url).toBe(400);
    }
  });
});

describe('password reset', () => {
  it('sends a link, validates it, updates the password once, and ends the other sessions', async () => {
    const login = demoAccounts.lawyer;
    const before = await server.signIn(login);
    expect((await post('/api/users/reset', { login: login.toUpperCase() })).statusCode).toBe(204);
    const link = await linkFromMailbox(login, /\/reset\/validate\//);
    const token = link.split('/').pop()!;

    const valid = await post('/api/users/reset/validate', { token });
    expect(valid.json()).toEqual({ login });
    expect((await post('/api/users/reset/validate', { token, login: 'other@demo.test' })).json()).toEqual({
      error: 'invalidToken',
    });

    const weak = await post('/api/users/reset/update', { token, login, password: 'short' });
    expect(weak.json()).toMatchObject({ error: 'validation', fields: { password: 'empty' } });
    const updated = await post('/api/users/reset/update', { token, login, password: 'N3w-password' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ token: expect.any(String), user: { email: login } });

    expect((await server.call({ method: 'GET', url: '/api/auth', token: before })).statusCode).toBe(401);
    expect((await post('/api/users/reset/update', { token, login, password: 'An0ther-pass' })).json()).toEqual({
      error: 'invalidToken',
    });
    expect((await post('/api/auth', { login, password: DEMO_PASSWORD })).statusCode).toBe(401);
    expect((await post('/api/auth', { login, password: 'N3w-password' })).statusCode).toBe(200);
  });

  it('answers 204 for unknown accounts and sends nothing', async () => {
    const before = (await server.call({ method: 'GET', url: '/api/dev/mailbox' })).json().emails.length;
    expect((await post('/api/users/reset', { login: 'nobody@demo.test' })).statusCode).toBe(204);
    expect((await server.call({ method: 'GET', url: '/api/dev/mailbox' })).json().emails.length).toBe(before);
  });

  it('a newer link replaces the older one', async () => {
    const login = demoAccounts.admin;
    await post('/api/users/reset', { login });
    const first = (await linkFromMailbox(login, /\/reset\/validate\//)).split('/').pop();
    await post('/api/users/reset', { login });
    const second = (await linkFromMailbox(login, /\/reset\/validate\//)).split('/').pop();
    expect(second).not.toBe(first);
    expect((await post('/api/users/reset/validate', { token: first })).json()).toEqual({ error: 'invalidToken' });
    expect((await post('/api/users/reset/validate', { token: second })).statusCode).toBe(200);
  });

  it('refuses a bad email with the email code', async () => {
    const res = await post('/api/users/reset', { login: 'nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation', fields: { login: 'email' } });
  });
});

describe('GET /users and GET /user/{id} (staff)', () => {
  it('lists accounts with paging and search, and reads one', async () => {
    const token = await server.signIn(demoAccounts.admin);
    const page = await server.call({ method: 'GET', url: '/api/users?page=1&pageSize=3', token });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ page: 1, pageSize: 3, total: expect.any(Number) });
    expect(page.json().items).toHaveLength(3);
    expect(page.json().items[0]).not.toHaveProperty('passwordHash');

    const found = await server.call({ method: 'GET', url: '/api/users?search=bennett', token });
    expect(found.json().items.map((u: { email: string }) => u.email)).toEqual([demoAccounts.lawyer]);
    const wildcard = await server.call({ method: 'GET', url: '/api/users?search=%25', token });
    expect(wildcard.json().total).toBe(0);
    const customers = await server.call({ method: 'GET', url: '/api/users?role=customer&pageSize=100', token });
    expect(customers.json().items.every((u: { role: string }) => u.role === 'customer')).toBe(true);

    const id = found.json().items[0].id;
    const one = await server.call({ method: 'GET', url: `/api/user/${id}`, token });
    expect(one.json()).toMatchObject({ id, email: demoAccounts.lawyer, role: 'lawyer', state: 'active' });
    expect((await server.call({ method: 'GET', url: '/api/user/999999', token })).statusCode).toBe(404);
    expect((await server.call({ method: 'GET', url: '/api/users?pageSize=1000', token })).json()).toMatchObject({
      error: 'validation',
      fields: { pageSize: 'invalid' },
    });
  });
});

describe('housekeeping', () => {
  it('removes spent links, ended sessions and finished rate-limit windows, and keeps the rest', async () => {
    const { removeSpentRecords } = await import('../../src/server/services/housekeeping');
    const live = await server.signIn(demoAccounts.firm);
    await server.db.execute(
      sql`insert into rate_limits (key, window_started_at, count) values ('old', now() - interval '2 days', 3), ('fresh', now(), 1)`,
    );
    await server.db.execute(
      sql`update sessions set revoked_at = now() - interval '40 days' where id = (select min(id) from sessions)`,
    );
    await server.db.execute(
      sql`update user_tokens set used_at = now() - interval '40 days' where id = (select min(id) from user_tokens)`,
    );
    const before = await server.rows<{ sessions: number; tokens: number }>(
      sql`select (select count(*)::int from sessions) as sessions, (select count(*)::int from user_tokens) as tokens`,
    );
    await removeSpentRecords(server.db);
    const after = await server.rows<{ sessions: number; tokens: number }>(
      sql`select (select count(*)::int from sessions) as sessions, (select count(*)::int from user_tokens) as tokens`,
    );
    expect(after[0]!.sessions).toBe(before[0]!.sessions - 1);
    expect(after[0]!.tokens).toBe(before[0]!.tokens - 1);
    const keys = (await server.rows<{ key: string }>(sql`select key from rate_limits where key in ('old', 'fresh')`)).map(
      (r) => r.key,
    );
    expect(keys).toEqual(['fresh']);
    expect((await server.call({ method: 'GET', url: '/api/auth', token: live })).statusCode).toBe(200);
  });
});
