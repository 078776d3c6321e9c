import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loanReference } from '../../src/shared/rules/loan-reference';
import { notificationKindsOfRole } from '../../src/shared/rules/notification-kinds';
import { sendDuePushes } from '../../src/server/push/sender';
import { enqueuePush } from '../../src/server/push/outbox';
import { KNOWN_PUSH_SERVICE_HOSTS } from '../../src/server/config';
import { startTestServer, type TestServer } from './harness';
import { buildApplication, buildClient, buildUser, signInAs } from './factories';
import { buildSide, clientDeclarations, drawdownRequest, type Side } from './loans-fixtures';
import { buildSigningCase, prepareAndNotify, signAsClient } from './esign-fixtures';
import { personal, validSteps } from './applications-fixtures';
import { startLocalPushService, type Device, type LocalPushService } from './local-push-service';

/**
 * Web push end to end on the server: the subscription calls, and each event's notification as a
 * push service receives it. The local push service checks each request's VAPID JWT (RFC 8292) and
 * decrypts its body (RFC 8291) with the private key of the device the test made; the decrypted
 * sentence and link must be the expected ones, for the right person and nobody else.
 */

const pushConfig = {
  vapidKeys: undefined,
  subject: 'mailto:ops@portal.test',
  sendTimeoutMs: 10_000,
  serviceHosts: KNOWN_PUSH_SERVICE_HOSTS,
};
let server: TestServer;
let push: LocalPushService;
let ours: Side;
let theirs: Side;
const staff = {} as Record<'root' | 'admin', { token: string; userId: number }>;
/** Who each device belongs to, by endpoint. */
const owner = new Map<string, string>();
const devices = {} as Record<string, Device>;
const logged: string[] = [];

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  server.call({ method, url, token, ...(payload ? { payload } : {}) });

async function subscribe(name: string, token: string): Promise<number> {
  const device = push.device();
  const res = await call('POST', '/api/push/subscriptions', token, {
    endpoint: device.endpoint,
    keys: device.keys,
    deviceLabel: `Phone of ${name}`,
  });
  expect(res.statusCode, res.body).toBe(201);
  owner.set(device.endpoint, name);
  devices[name] = device;
  return res.json().id as number;
}

/** Runs the sender once and returns what each person's device received, decrypted. */
async function delivered() {
  await sendDuePushes(server.db, server.config, (msg, err) => logged.push(`${msg}: ${String(err)}`));
  expect(push.faults).toEqual([]);
  return push
    .take()
    .filter((d) => d.status === 201)
    .map((d) => ({ to: owner.get(d.endpoint), body: d.message!.body, link: d.message!.link, kind: d.message!.kind }))
    .sort((a, b) => String(a.to).localeCompare(String(b.to)));
}

beforeAll(async () => {
  server = await startTestServer({ push: { ...pushConfig, sendTimeoutMs: 400 } });
  push = await startLocalPushService();
  ours = await buildSide(server);
  theirs = await buildSide(server);
  for (const role of ['root', 'admin'] as const) {
    const user = await buildUser(server.db, { role });
    staff[role] = { token: await signInAs(server, user), userId: user.userId };
  }
  await subscribe('our client', ours.tokens.customer);
  await subscribe('our lawyer', ours.tokens.lawyer);
  await subscribe('their client', theirs.tokens.customer);
  await subscribe('their lawyer', theirs.tokens.lawyer);
  await subscribe('root', staff.root.token);
  await subscribe('admin', staff.admin.token);
});

afterAll(async () => {
  await push?.close();
  await server?.close();
});

beforeEach(async () => {
  // Nothing left over from one test is sent in the next.
  await delivered();
});

describe('the calls', () => {
  it('serves the public key only, the same on every call, and signs every send with it', async () => {
    const first = await call('GET', '/api/push/public-key', ours.tokens.lawyer);
    expect(first.statusCode).toBe(200);
    expect(Object.keys(first.json())).toEqual(['publicKey']);
    const { publicKey } = first.json() as { publicKey: string };
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect((await call('GET', '/api/push/public-key', ours.tokens.customer)).json()).toEqual({ publicKey });
    const [stored] = await server.rows<{ public_key: string; private_key: string }>(sql`select * from push_vapid_keys`);
    expect(stored!.public_key).toBe(publicKey);
    expect(first.body).not.toContain(stored!.private_key);

    await enqueuePush(server.db, { userId: ours.client.userId, kind: 'documents-ready', text: 'A test.', link: '/' });
    expect(await delivered()).toHaveLength(1);
    const [sent] = push.received.slice(-1);
    expect(sent!.vapid).toMatchObject({ k: publicKey, aud: push.origin, sub: 'mailto:ops@portal.test' });
    expect(sent!.ttl).toBe('86400');
  });

  it('answers 400 in the portal’s error shape for bad input, storing nothing', async () => {
    const device = push.device();
    const before = await server.rows<{ n: number }>(sql`select count(*)::int as n from push_subscriptions`);
    const cases: [object, Record<string, string>][] = [
      [{ endpoint: 'http://push.example.com/x', keys: device.keys, deviceLabel: 'Phone' }, { endpoint: 'httpsRequired' }],
      [{ endpoint: 'ftp://push.example.com/x', keys: device.keys, deviceLabel: 'Phone' }, { endpoint: 'httpsRequired' }],
      [{ endpoint: 'not a url', keys: device.keys, deviceLabel: 'Phone' }, { endpoint: 'httpsRequired' }],
      [
        { endpoint: device.endpoint, keys: { p256dh: 'AAAA', auth: device.keys.auth }, deviceLabel: 'Phone' },
        { 'keys.p256dh': 'invalid' },
      ],
      [
        { endpoint: device.endpoint, keys: { p256dh: device.keys.p256dh, auth: 'c2hvcnQ' }, deviceLabel: 'Phone' },
        { 'keys.auth': 'invalid' },
      ],
      [{ endpoint: device.endpoint, keys: device.keys, deviceLabel: '   ' }, { deviceLabel: 'required' }],
      [{ endpoint: device.endpoint, keys: device.keys }, { deviceLabel: 'required' }],
      [{ endpoint: device.endpoint, keys: device.keys, deviceLabel: 'x'.repeat(101) }, { deviceLabel: 'tooLong' }],
    ];
    for (const [body, fields] of cases) {
      const res = await call('POST', '/api/push/subscriptions', ours.tokens.lawyer, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ error: 'validation', fields });
    }
    const kinds = await call('PUT', '/api/push/preferences', ours.tokens.lawyer, {
      kinds: ['drawdown-paid', 'drawdown-requested'],
    });
    expect(kinds.statusCode).toBe(400);
    expect(kinds.json()).toEqual({ error: 'validation', fields: { 'kinds.1': 'invalid' } });
    const unknown = await call('PUT', '/api/push/preferences', ours.tokens.lawyer, { kinds: ['everything'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('validation');
    expect(await server.rows<{ n: number }>(sql`select count(*)::int as n from push_subscriptions`)).toEqual(before);
  });

  it('in production takes only an endpoint of a known push service, storing nothing else (decision 701)', async () => {
    const live = await startTestServer({ production: true, push: pushConfig });
    try {
      const lawyer = await buildUser(live.db, { role: 'lawyer' });
      const token = await signInAs(live, lawyer);
      const { keys } = push.device();
      const subscribeTo = (endpoint: string) =>
        live.app.inject({
          method: 'POST',
          url: '/api/push/subscriptions',
          headers: { authorization: `Bearer ${token}` },
          payload: { endpoint, keys, deviceLabel: 'Phone' },
        });
      for (const endpoint of [
        'https://push.example.com/x',
        'https://169.254.169.254.nip.io/latest',
        'https://fcm.googleapis.com.example.com/x',
        'http://127.0.0.1:4610/push/1',
      ]) {
        const res = await subscribeTo(endpoint);
        expect(res.statusCode, endpoint).toBe(400);
        expect(res.json().fields.endpoint, endpoint).toBe(endpoint.startsWith('http:') ? 'httpsRequired' : 'pushServiceUnknown');
      }
      expect(await live.rows(sql`select id from push_subscriptions`)).toEqual([]);

      // A subscription kept from before (made outside production, or under a wider list) is
      // checked again at each send: removed, audited, never posted to.
      const kept = push.device();
      const [row] = await live.rows<{ id: number }>(sql`insert into push_subscriptions
          (user_id, session_id, endpoint, p256dh, auth, device_label)
        values (${lawyer.userId}, (select max(id) from sessions where user_id = ${lawyer.userId}),
          ${kept.endpoint}, ${kept.keys.p256dh}, ${kept.keys.auth}, 'Kept from before')
        returning id`);
      await enqueuePush(live.db, { userId: lawyer.userId, kind: 'loan-created', text: 'Never sent.', link: '/' });
      const received = push.received.length;
      expect(await sendDuePushes(live.db, live.config, () => undefined)).toBe(1);
      expect(push.received.length).toBe(received);
      expect(await live.rows(sql`select id from push_subscriptions`)).toEqual([]);
      const [audit] = await live.rows<{ action: string; actor_user_id: number | null }>(
        sql`select action, actor_user_id from audit_events where entity_type = 'pushSubscription' and entity_id = ${String(row!.id)}`,
      );
      expect(audit).toEqual({ action: 'removedAsNotAllowed', actor_user_id: null });

      const known = await subscribeTo('https://fcm.googleapis.com/fcm/send/abc:APA91b');
      expect(known.statusCode).toBe(201);
    } finally {
      await live.close();
    }
  });

  it('lists the caller’s own devices, marking this one; another session’s is not “this device”', async () => {
    const otherSession = await signInAs(server, ours.lawyer);
    const laptop = push.device();
    const made = await call('POST', '/api/push/subscriptions', otherSession, {
      endpoint: laptop.endpoint,
      keys: laptop.keys,
      deviceLabel: 'Laptop',
    });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ deviceLabel: 'Laptop', thisDevice: true, createdAt: expect.any(String) });
    const list = await call('GET', '/api/push/subscriptions', ours.tokens.lawyer);
    expect(list.statusCode).toBe(200);
    const items = list.json().items as { deviceLabel: string; thisDevice: boolean }[];
    expect(items.map((i) => [i.deviceLabel, i.thisDevice])).toEqual([
      ['Laptop', false],
      ['Phone of our lawyer', true],
    ]);
    // Nobody else's device is listed.
    const clientList = (await call('GET', '/api/push/subscriptions', ours.tokens.customer)).json().items as unknown[];
    expect(clientList).toHaveLength(1);
    await call('DELETE', `/api/push/subscriptions/${made.json().id}`, otherSession);
  });

  it('deletes only the caller’s own subscription (404 for another’s), audited', async () => {
    const device = push.device();
    const made = await call('POST', '/api/push/subscriptions', theirs.tokens.lawyer, {
      endpoint: device.endpoint,
      keys: device.keys,
      deviceLabel: 'Tablet',
    });
    const id = made.json().id as number;
    const refused = await call('DELETE', `/api/push/subscriptions/${id}`, ours.tokens.lawyer);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: 'notFound' });
    expect(await server.rows(sql`select id from push_subscriptions where id = ${id}`)).toHaveLength(1);
    expect((await call('DELETE', `/api/push/subscriptions/${id}`, theirs.tokens.lawyer)).statusCode).toBe(204);
    expect(await server.rows(sql`select id from push_subscriptions where id = ${id}`)).toHaveLength(0);
    const audit = await server.rows<{ action: string; actor_user_id: number }>(
      sql`select action, actor_user_id from audit_events where entity_type = 'pushSubscription' and entity_id = ${String(id)} order by id`,
    );
    expect(audit).toEqual([
      { action: 'subscribed', actor_user_id: theirs.lawyer.userId },
      { action: 'unsubscribed', actor_user_id: theirs.lawyer.userId },
    ]);
  });

  it('keeps the kinds of the caller’s role, all on until they choose; a firm’s admin has none', async () => {
    const lawyerKinds = notificationKindsOfRole('lawyer');
    expect((await call('GET', '/api/push/preferences', theirs.tokens.lawyer)).json()).toEqual({ kinds: lawyerKinds });
    expect((await call('GET', '/api/push/preferences', staff.admin.token)).json()).toEqual({
      kinds: ['application-submitted', 'drawdown-requested', 'drawdown-client-approved'],
    });
    const put = await call('PUT', '/api/push/preferences', theirs.tokens.lawyer, { kinds: ['drawdown-paid'] });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ kinds: ['drawdown-paid'] });
    expect((await call('GET', '/api/push/preferences', theirs.tokens.lawyer)).json()).toEqual({ kinds: ['drawdown-paid'] });
    expect((await call('PUT', '/api/push/preferences', theirs.tokens.lawyer, { kinds: lawyerKinds })).json()).toEqual({
      kinds: lawyerKinds,
    });
    for (const url of ['/api/push/preferences', '/api/push/public-key', '/api/push/subscriptions'])
      expect((await call('GET', url, theirs.tokens.firm)).statusCode).toBe(403);
  });
});

describe('what is sent, and to whom', () => {
  const ref = () => loanReference(ours.loanId);
  const drawdownState = (id: number, token: string, state: string, extra: object = {}) =>
    call('POST', `/api/drawdowns/${id}/state`, token, { state, ...extra });

  async function requestDrawdown(): Promise<number> {
    const res = await call('POST', '/api/drawdowns', ours.tokens.lawyer, drawdownRequest(ours.applicationId));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  }

  it('notifies the right person at each step of a drawdown’s approval loop, and nobody else', async () => {
    const id = await requestDrawdown();
    const link = `/drawdowns/${id}`;
    const requested = { body: `A lawyer requested drawdown ${id} on loan ${ref()}: it waits for your review.`, link };
    expect(await delivered()).toEqual([
      { to: 'admin', kind: 'drawdown-requested', ...requested },
      { to: 'root', kind: 'drawdown-requested', ...requested },
    ]);

    expect((await drawdownState(id, staff.admin.token, 'providerApproved')).statusCode).toBe(200);
    expect(await delivered()).toEqual([
      {
        to: 'our client',
        kind: 'drawdown-awaits-client',
        body: `The provider approved drawdown ${id} on loan ${ref()}: it awaits your approval.`,
        link,
      },
      {
        to: 'our lawyer',
        kind: 'drawdown-approved',
        body: `The provider approved drawdown ${id} on loan ${ref()}: it now awaits your client’s approval.`,
        link,
      },
    ]);

    const approve = await drawdownState(id, ours.tokens.customer, 'customerApproved', {
      clientDeclarations: clientDeclarations(),
    });
    expect(approve.statusCode, approve.body).toBe(200);
    const clientApproved = {
      kind: 'drawdown-client-approved',
      body: `The client approved drawdown ${id} on loan ${ref()}: it is ready to be paid.`,
      link,
    };
    expect(await delivered()).toEqual([
      { to: 'admin', ...clientApproved },
      { to: 'root', ...clientApproved },
    ]);

    expect((await drawdownState(id, staff.root.token, 'paid')).statusCode).toBe(200);
    expect(await delivered()).toEqual([
      { to: 'our lawyer', kind: 'drawdown-paid', body: `The provider paid drawdown ${id} on loan ${ref()}.`, link },
    ]);
  });

  it('tells the lawyer of a rejection, by the provider or by the client', async () => {
    const rejected = await requestDrawdown();
    await delivered();
    expect((await drawdownState(rejected, staff.admin.token, 'providerRejected')).statusCode).toBe(200);
    expect(await delivered()).toEqual([
      {
        to: 'our lawyer',
        kind: 'drawdown-rejected',
        body: `The provider rejected drawdown ${rejected} on loan ${ref()}.`,
        link: `/drawdowns/${rejected}`,
      },
    ]);

    const declined = await requestDrawdown();
    expect((await drawdownState(declined, staff.admin.token, 'providerApproved')).statusCode).toBe(200);
    await delivered();
    expect((await drawdownState(declined, ours.tokens.customer, 'customerRejected')).statusCode).toBe(200);
    expect(await delivered()).toEqual([
      {
        to: 'our lawyer',
        kind: 'drawdown-rejected',
        body: `Your client rejected drawdown ${declined} on loan ${ref()}.`,
        link: `/drawdowns/${declined}`,
      },
    ]);
  });

  it('tells staff of a submitted application, and its lawyer of the provider’s decision', async () => {
    const submittedIds: number[] = [];
    for (let i = 0; i < 2; i++) {
      const application = await buildApplication(server.db, {
        lawyerId: ours.lawyer.id,
        clientId: ours.client.id,
        status: 'incomplete',
        loanAmount: 30_000,
        steps: { personal: personal(ours.client.email), ...validSteps },
      });
      const res = await call('POST', '/api/applications/state/update', ours.tokens.lawyer, {
        applicationId: application.id,
        state: 'submitted',
      });
      expect(res.statusCode, res.body).toBe(200);
      submittedIds.push(application.id);
    }
    const [accepted, rejected] = submittedIds as [number, number];
    const name = (id: number) => `A-${String(id).padStart(6, '0')}`;
    const sent = await delivered();
    expect(sent).toEqual(
      ['admin', 'admin', 'root', 'root'].map((to, i) => ({
        to,
        kind: 'application-submitted',
        body: `The application ${name(submittedIds[i % 2]!)} was submitted and waits for your review.`,
        link: `/applications/${submittedIds[i % 2]}/details`,
      })),
    );

    await server.rows(
      sql`update applications set kyc_aml_check = true, credid_check = true, repayment_vehicle = true where id = ${accepted}`,
    );
    const accept = await call('POST', '/api/applications/state/update', staff.admin.token, {
      applicationId: accepted,
      state: 'providerAccepted',
    });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(await delivered()).toEqual([
      {
        to: 'our lawyer',
        kind: 'application-accepted',
        body: `The provider accepted your client’s application ${name(accepted)}.`,
        link: `/applications/${accepted}/details`,
      },
    ]);
    const reject = await call('POST', '/api/applications/state/update', staff.admin.token, {
      applicationId: rejected,
      state: 'providerRejected',
      reason: 'Not enough equity',
    });
    expect(reject.statusCode, reject.body).toBe(200);
    expect(await delivered()).toEqual([
      {
        to: 'our lawyer',
        kind: 'application-rejected',
        body: `The provider rejected your client’s application ${name(rejected)}.`,
        link: `/applications/${rejected}/details`,
      },
    ]);
  });

  it('tells the client their documents are ready, and the lawyer the loan was created when they sign', async () => {
    const signing = await buildSigningCase(server);
    await subscribe('signing client', signing.client);
    await subscribe('signing lawyer', signing.lawyer);

    await prepareAndNotify(server, signing.applicationId, staff.admin.token);
    const id = `A-${String(signing.applicationId).padStart(6, '0')}`;
    expect(await delivered()).toEqual([
      {
        to: 'signing client',
        kind: 'documents-ready',
        body: `The documents of your application ${id} are ready to sign.`,
        link: `/applications/${signing.applicationId}/application-esign-prepared`,
      },
    ]);

    const signed = await signAsClient(server, signing);
    expect(signed.statusCode, signed.body).toBe(200);
    const [loan] = await server.rows<{ id: number }>(sql`select id from loans where application_id = ${signing.applicationId}`);
    expect(await delivered()).toEqual([
      {
        to: 'signing lawyer',
        kind: 'loan-created',
        body: `Your client signed: loan ${loanReference(loan!.id)} was created for application ${id}.`,
        link: `/loans/${loan!.id}`,
      },
    ]);
  });

  it('sends nothing of a kind turned off, and nothing for a change that was refused', async () => {
    expect((await call('PUT', '/api/push/preferences', ours.tokens.lawyer, { kinds: ['drawdown-paid'] })).statusCode).toBe(200);
    const id = await requestDrawdown();
    await delivered();
    expect((await drawdownState(id, staff.admin.token, 'providerApproved')).statusCode).toBe(200);
    expect((await delivered()).map((d) => [d.to, d.kind])).toEqual([['our client', 'drawdown-awaits-client']]);
    // Approving again is refused (409): nothing is queued.
    expect((await drawdownState(id, staff.admin.token, 'providerApproved')).statusCode).toBe(409);
    expect(await delivered()).toEqual([]);
    // A request above the credit is refused: staff hear nothing.
    const tooMuch = await call(
      'POST',
      '/api/drawdowns',
      ours.tokens.lawyer,
      drawdownRequest(ours.applicationId, { amount: 9_000_000 }),
    );
    expect(tooMuch.statusCode).toBe(400);
    expect(await delivered()).toEqual([]);
    await call('PUT', '/api/push/preferences', ours.tokens.lawyer, { kinds: notificationKindsOfRole('lawyer') });
  });

  it('queues nothing when the change’s transaction rolls back', async () => {
    await expect(
      server.db.transaction(async (tx) => {
        await enqueuePush(tx, { userId: ours.client.userId, kind: 'documents-ready', text: 'Never.', link: '/' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await server.rows(sql`select id from push_outbox where payload like '%Never.%'`)).toEqual([]);
  });
});

describe('delivery', () => {
  async function deviceOf(name: string) {
    const token = await signInAs(server, ours.client);
    const id = await subscribe(name, token);
    return { token, id, device: devices[name]! };
  }
  const queue = (text: string) =>
    enqueuePush(server.db, { userId: ours.client.userId, kind: 'documents-ready', text, link: '/' });
  const subscriptionExists = async (id: number) =>
    (await server.rows(sql`select id from push_subscriptions where id = ${id}`)).length === 1;

  it.each([410, 404])('a push service answering %i removes the subscription and what was queued for it', async (status) => {
    const { id, device } = await deviceOf(`gone ${status}`);
    device.answers.push(status, status);
    await queue(`For a gone device (${status}).`);
    await queue(`Again for a gone device (${status}).`);
    const sent = await delivered();
    expect(sent.map((d) => d.to)).toEqual(['our client', 'our client']);
    expect(await subscriptionExists(id)).toBe(false);
    expect(await server.rows(sql`select id from push_outbox where subscription_id = ${id}`)).toEqual([]);
    const [audit] = await server.rows<{ action: string }>(
      sql`select action from audit_events where entity_type = 'pushSubscription' and entity_id = ${String(id)} order by id desc limit 1`,
    );
    expect(audit!.action).toBe('removedByPushService');
  });

  it('retries a 500 later, with backoff, and sends it once', async () => {
    const { id, device } = await deviceOf('flaky');
    device.answers.push(500);
    await queue('Retried once.');
    await delivered();
    const [row] = await server.rows<{ attempts: number; sent_at: unknown; last_error: string; later: boolean }>(
      sql`select attempts, sent_at, last_error, next_attempt_at > now() + interval '50 seconds' as later
          from push_outbox where subscription_id = ${id}`,
    );
    expect(row).toMatchObject({ attempts: 1, sent_at: null, later: true });
    expect(row!.last_error).toContain('500');
    expect(await delivered()).toEqual([]);
    // The test clock: the retry falls due.
    await server.rows(sql`update push_outbox set next_attempt_at = now() where subscription_id = ${id}`);
    expect(await delivered()).toEqual([{ to: 'flaky', kind: 'documents-ready', body: 'Retried once.', link: '/' }]);
    await server.rows(sql`update push_outbox set next_attempt_at = now() where subscription_id = ${id}`);
    expect(await delivered()).toEqual([]);
    expect(push.received.filter((d) => d.endpoint === device.endpoint).map((d) => d.status)).toEqual([500, 201]);
    expect(await subscriptionExists(id)).toBe(true);
  });

  it('never sends one twice when two senders run at once', async () => {
    for (let i = 0; i < 5; i++) await queue(`Once only ${i}.`);
    await Promise.all([sendDuePushes(server.db, server.config, () => {}), sendDuePushes(server.db, server.config, () => {})]);
    const bodies = push
      .take()
      .filter((d) => d.endpoint === devices['our client']!.endpoint)
      .map((d) => d.message!.body);
    expect(bodies.sort()).toEqual([0, 1, 2, 3, 4].map((i) => `Once only ${i}.`));
  });

  it('gives up on a slow push service at the deadline and tries again later; requests never wait for it', async () => {
    const { id, device } = await deviceOf('slow');
    device.hang = true;
    const started = Date.now();
    const drawdown = await call('POST', '/api/drawdowns', ours.tokens.lawyer, drawdownRequest(ours.applicationId));
    expect(drawdown.statusCode).toBe(201);
    await queue('Held up.');
    await sendDuePushes(server.db, server.config, () => {});
    expect(Date.now() - started).toBeLessThan(5_000);
    const [row] = await server.rows<{ attempts: number; sent_at: unknown; last_error: string }>(
      sql`select attempts, sent_at, last_error from push_outbox where subscription_id = ${id}`,
    );
    expect(row).toMatchObject({ attempts: 1, sent_at: null });
    expect(row!.last_error).toMatch(/timeout|abort/i);
    // The client's own device, made in another of her sessions: she may remove it from here.
    expect((await call('DELETE', `/api/push/subscriptions/${id}`, ours.tokens.customer)).statusCode).toBe(204);
  });

  it('queues nothing for a disabled account or a revoked session, whose device could not open it', async () => {
    const phone = await deviceOf('disabled later');
    await server.db.execute(sql`update users set status = 'disabled' where id = ${ours.client.userId}`);
    await queue('While disabled.');
    expect((await delivered()).map((d) => d.to)).toEqual([]);
    await server.db.execute(sql`update users set status = 'active' where id = ${ours.client.userId}`);
    await server.db.execute(sql`update sessions set revoked_at = now() where id = (
      select session_id from push_subscriptions where id = ${phone.id})`);
    await queue('After the session was revoked.');
    const to = (await delivered()).map((d) => d.to);
    expect(to).toContain('our client');
    expect(to).not.toContain('disabled later');
  });

  it('removes every device of an account whose password is set by a reset link, or whose client withdraws', async () => {
    const subscriptionsOf = async (userId: number) =>
      (await server.rows(sql`select id from push_subscriptions where user_id = ${userId}`)).length;
    const twoDevices = async (name: string) => {
      const client = await buildClient(server.db);
      for (const device of ['phone', 'tablet']) await subscribe(`${name} ${device}`, await signInAs(server, client));
      expect(await subscriptionsOf(client.userId)).toBe(2);
      return client;
    };

    const othersOf = async (userId: number) =>
      (await server.rows<{ id: number }>(sql`select id from push_subscriptions where user_id <> ${userId} order by id`)).map(
        (r) => r.id,
      );

    const resetting = await twoDevices('resetting');
    const othersBeforeReset = await othersOf(resetting.userId);
    expect((await server.call({ method: 'POST', url: '/api/users/reset', payload: { login: resetting.email } })).statusCode).toBe(
      204,
    );
    const mailbox = (await server.call({ method: 'GET', url: '/api/dev/mailbox' })).json() as {
      emails: { to: string; links: string[] }[];
    };
    const link = mailbox.emails.flatMap((e) => (e.to === resetting.email ? e.links : [])).find((l) => l.includes('/reset/'));
    const updated = await server.call({
      method: 'POST',
      url: '/api/users/reset/update',
      payload: { token: link!.split('/').pop(), login: resetting.email, password: 'Reset-pass-1' },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(await subscriptionsOf(resetting.userId)).toBe(0);
    expect(await othersOf(resetting.userId)).toEqual(othersBeforeReset);

    const withdrawing = await twoDevices('withdrawing');
    const othersBeforeWithdrawal = await othersOf(withdrawing.userId);
    const { id: applicationId } = await buildApplication(server.db, {
      lawyerId: ours.lawyer.id,
      clientId: withdrawing.id,
      status: 'providerAccepted',
    });
    const withdrawn = await call('POST', '/api/applications/state/update', await signInAs(server, withdrawing), {
      applicationId,
      state: 'customerRejected',
      reason: 'Found other funding',
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(await subscriptionsOf(withdrawing.userId)).toBe(0);
    // Nobody else's devices went with them: the lawyer's, staff's and the other clients' are all there.
    expect(await othersOf(withdrawing.userId)).toEqual(othersBeforeWithdrawal);
    const lawyerDevices = await server.rows<{ id: number }>(
      sql`select id from push_subscriptions where user_id = ${ours.lawyer.userId}`,
    );
    expect(lawyerDevices.length).toBeGreaterThan(0);
    for (const { id } of lawyerDevices) expect(othersBeforeWithdrawal).toContain(id);
  });

  it('removes the subscriptions of a device that signs out, and only that device’s', async () => {
    const phone = await deviceOf('signing out');
    const res = await server.call({ method: 'DELETE', url: '/api/auth', token: phone.token });
    expect(res.statusCode).toBe(204);
    expect(await subscriptionExists(phone.id)).toBe(false);
    const [stays] = await server.rows<{ n: number }>(
      sql`select count(*)::int as n from push_subscriptions where endpoint = ${devices['our client']!.endpoint}`,
    );
    expect(stays!.n).toBe(1);
    await queue('After sign-out.');
    const to = (await delivered()).map((d) => d.to);
    expect(to).toContain('our client');
    expect(to).not.toContain('signing out');
  });
});
