/**
 * Reminders of what keeps waiting on a person (docs/decisions.md 693-700): the sweep, run with a
 * clock moved forward past the wait, writes one email and one push outbox row per reminder to the
 * person the record waits on, again after the interval, never past the limit, never once they
 * acted, and once however many sweeps run at once; staff read the last one on the record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/server/db/connection';
import { pushPreferences, pushSubscriptions } from '../../src/server/db/schema';
import { sendDueReminders } from '../../src/server/services/reminders/send-due-reminders';
import { formatApplicationId } from '../../src/shared/rules/formats';
import { loanReference } from '../../src/shared/rules/loan-reference';
import { startTestServer, type TestServer } from './harness';
import { buildApplication, buildLawyer, buildUser, signInAs } from './factories';
import { buildSide, clientDeclarations, drawdownRequest } from './loans-fixtures';
import { buildSigningCase, prepareAndNotify, signAsClient } from './esign-fixtures';

let server: TestServer;
let staff: { userId: number; token: string };
/** A second connection to the same database, as another server process has (the same one on the embedded database). */
let otherProcess: { db: Database; close(): Promise<void> };

const HOUR = 60 * 60 * 1000;
/** The defaults: after 72 hours, every 48 hours, 3 at most. */
const AFTER = 72;
const EVERY = 48;

beforeAll(async () => {
  server = await startTestServer();
  const admin = await buildUser(server.db, { role: 'admin' });
  staff = { userId: admin.userId, token: await signInAs(server, admin) };
  await subscribe(admin.userId);
  otherProcess = server.config.databaseUrl
    ? await openDatabase({ databaseUrl: server.config.databaseUrl, dataDir: 'memory://' })
    : { db: server.db, close: async () => {} };
});

afterAll(async () => {
  await otherProcess?.close();
  await server?.close();
});

/** A device of the user that receives every kind it is not told otherwise about. */
async function subscribe(userId: number): Promise<void> {
  const tag = `${userId}-${Math.random().toString(36).slice(2)}`;
  await server.db.insert(pushSubscriptions).values({
    userId,
    endpoint: `https://push.example.test/${tag}`,
    p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
    auth: 'tBHItJI5svbpez7KI4CCXg',
    deviceLabel: 'Test phone',
  });
}

/** The database's time now: what a record entered its status at. */
async function databaseNow(): Promise<number> {
  const [row] = await server.rows<{ now: Date | string }>(sql`select now() as now`);
  return new Date(row!.now).getTime();
}

const sweep = (at: number, db: Database = server.db) => sendDueReminders(db, server.config, { clock: () => new Date(at) });

interface Sent {
  emails: { to_address: string; subject: string; text_body: string }[];
  pushes: { user_id: number; kind: string; body: string; link: string }[];
}

/** The reminder emails of the application, and the reminder push rows whose link is the record's page (not the notices'). */
async function sentFor(applicationId: number, link: string): Promise<Sent> {
  const emails = await server.rows<Sent['emails'][number]>(
    sql`select to_address, subject, text_body from emails
        where application_id = ${applicationId} and subject like 'Reminder:%' order by id`,
  );
  const rows = await server.rows<{ user_id: number; kind: string; payload: string }>(
    sql`select user_id, kind, payload from push_outbox order by id`,
  );
  const pushes = rows
    .map((row) => ({ user_id: row.user_id, kind: row.kind, ...(JSON.parse(row.payload) as { body: string; link: string }) }))
    .filter((push) => push.link === link && push.body.startsWith('Reminder: '))
    .map(({ user_id, kind, body, link: pushLink }) => ({ user_id, kind, body, link: pushLink }));
  return { emails, pushes };
}

/** One thing that waits on a person, entered through the API as people do, and the act that ends the wait. */
interface Waiting {
  applicationId: number;
  /** The page the reminder links to. */
  link: string;
  /** Who is reminded: their address, their user. */
  to: string;
  userId: number;
  subject: string;
  /** A phrase of the email's text. */
  says: string;
  push: string;
  /** GET of the record as staff see it. */
  detailUrl: string;
  act(): Promise<void>;
}

interface WaitCase {
  kind: string;
  make(): Promise<Waiting>;
}

const waits: WaitCase[] = [
  {
    kind: 'documents-ready',
    async make() {
      const c = await buildSigningCase(server);
      await prepareAndNotify(server, c.applicationId, staff.token);
      const [client] = await server.rows<{ id: number }>(sql`select id from users where email = ${c.clientEmail}`);
      await subscribe(client!.id);
      return {
        applicationId: c.applicationId,
        link: `/applications/${c.applicationId}/application-esign-prepared`,
        to: c.clientEmail,
        userId: client!.id,
        subject: 'Reminder: your documents are ready to sign',
        says: 'Your documents have been ready to sign since',
        push: `Reminder: the documents of your application ${formatApplicationId(c.applicationId)} are ready to sign.`,
        detailUrl: `/api/applications/${c.applicationId}`,
        async act() {
          const signed = await signAsClient(server, c);
          expect(signed.statusCode, signed.body).toBe(200);
        },
      };
    },
  },
  {
    kind: 'drawdown-awaits-client',
    async make() {
      const side = await buildSide(server, 20_000);
      await subscribe(side.client.userId);
      const id = await requestDrawdown(side);
      await changeDrawdown(id, { state: 'providerApproved' }, staff.token);
      return {
        applicationId: side.applicationId,
        link: `/drawdowns/${id}`,
        to: side.client.email,
        userId: side.client.userId,
        subject: 'Reminder: a drawdown waits for your approval',
        says: 'The provider approved a drawdown of £1,000.00 from your loan on',
        push: `Reminder: the provider approved drawdown ${id} on loan ${loanReference(side.loanId)}: it awaits your approval.`,
        detailUrl: `/api/drawdowns/${id}`,
        act: () =>
          changeDrawdown(id, { state: 'customerApproved', clientDeclarations: clientDeclarations() }, side.tokens.customer),
      };
    },
  },
  {
    kind: 'application-submitted',
    async make() {
      const lawyer = await buildLawyer(server.db);
      const application = await buildApplication(server.db, { lawyerId: lawyer.id, status: 'submitted' });
      return {
        applicationId: application.id,
        link: `/applications/${application.id}/details`,
        to: server.config.brand.email,
        userId: staff.userId,
        subject: `Reminder: application ${formatApplicationId(application.id)} waits for your review`,
        says: 'was submitted on',
        push: `Reminder: the application ${formatApplicationId(application.id)} was submitted and waits for your review.`,
        detailUrl: `/api/applications/${application.id}`,
        async act() {
          const res = await server.call({
            method: 'POST',
            url: '/api/applications/state/update',
            payload: { applicationId: application.id, state: 'providerRejected', reason: 'Insufficient assets' },
            token: staff.token,
          });
          expect(res.statusCode, res.body).toBe(200);
        },
      };
    },
  },
  {
    kind: 'drawdown-requested',
    async make() {
      const side = await buildSide(server, 20_000);
      const id = await requestDrawdown(side);
      return {
        applicationId: side.applicationId,
        link: `/drawdowns/${id}`,
        to: server.config.brand.email,
        userId: staff.userId,
        subject: 'Reminder: a drawdown request waits for your review',
        says: 'requested a drawdown of £1,000.00 on',
        push: `Reminder: a lawyer requested drawdown ${id} on loan ${loanReference(side.loanId)}: it waits for your review.`,
        detailUrl: `/api/drawdowns/${id}`,
        act: () => changeDrawdown(id, { state: 'providerApproved' }, staff.token),
      };
    },
  },
];

async function requestDrawdown(side: Awaited<ReturnType<typeof buildSide>>): Promise<number> {
  const res = await server.call({
    method: 'POST',
    url: '/api/drawdowns',
    payload: drawdownRequest(side.applicationId),
    token: side.tokens.lawyer,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

async function changeDrawdown(id: number, body: object, token: string): Promise<void> {
  const res = await server.call({
    method: 'POST',
    url: `/api/drawdowns/${id}/state`,
    payload: body,
    token,
    headers: { 'user-agent': 'Phone test browser' },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function lastReminder(waiting: Waiting) {
  const res = await server.call({ method: 'GET', url: waiting.detailUrl, token: staff.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().lastReminder as { sentAt: string; count: number; limit: number } | null;
}

describe.each(waits)('a reminder of $kind', ({ kind, make }) => {
  it('goes out after the wait, by email and push to the person it waits on, again after the interval, up to the limit', async () => {
    const waiting = await make();
    const since = await databaseNow();

    await sweep(since + (AFTER - 1) * HOUR);
    expect(await sentFor(waiting.applicationId, waiting.link)).toEqual({ emails: [], pushes: [] });
    expect(await lastReminder(waiting)).toBeNull();

    const first = since + (AFTER + 1) * HOUR;
    await sweep(first);
    const once = await sentFor(waiting.applicationId, waiting.link);
    expect(once.emails).toHaveLength(1);
    expect(once.emails[0]).toMatchObject({ to_address: waiting.to, subject: waiting.subject });
    expect(once.emails[0]!.text_body).toContain(waiting.says);
    expect(once.emails[0]!.text_body).toContain(`${server.config.publicUrl}${waiting.link}`);
    expect(once.pushes).toEqual([{ user_id: waiting.userId, kind, body: waiting.push, link: waiting.link }]);
    expect(await lastReminder(waiting)).toEqual({ sentAt: new Date(first).toISOString(), count: 1, limit: 3 });

    // Not again before the interval; again after it.
    await sweep(first + (EVERY - 1) * HOUR);
    expect((await sentFor(waiting.applicationId, waiting.link)).emails).toHaveLength(1);
    const second = first + (EVERY + 1) * HOUR;
    await sweep(second);
    const twice = await sentFor(waiting.applicationId, waiting.link);
    expect(twice.emails).toHaveLength(2);
    expect(twice.pushes).toHaveLength(2);
    expect(await lastReminder(waiting)).toEqual({ sentAt: new Date(second).toISOString(), count: 2, limit: 3 });

    const third = second + (EVERY + 1) * HOUR;
    await sweep(third);
    // The limit: three, however long it keeps waiting.
    await sweep(third + (EVERY + 1) * HOUR);
    await sweep(third + 10 * EVERY * HOUR);
    const all = await sentFor(waiting.applicationId, waiting.link);
    expect(all.emails).toHaveLength(3);
    expect(all.pushes).toHaveLength(3);
    expect(await lastReminder(waiting)).toEqual({ sentAt: new Date(third).toISOString(), count: 3, limit: 3 });
  });

  it('stops the moment the person acts', async () => {
    const waiting = await make();
    const since = await databaseNow();
    await sweep(since + (AFTER + 1) * HOUR);
    expect((await sentFor(waiting.applicationId, waiting.link)).emails).toHaveLength(1);

    await waiting.act();
    expect(await lastReminder(waiting)).toBeNull();
    for (const days of [5, 7, 9, 30]) await sweep(since + days * 24 * HOUR);
    const sent = await sentFor(waiting.applicationId, waiting.link);
    expect(sent.emails.filter((email) => email.subject === waiting.subject)).toHaveLength(1);
    expect(sent.pushes.filter((push) => push.kind === kind)).toHaveLength(1);
  });
});

describe('the sweep', () => {
  it('sends a reminder once when several processes sweep at the same moment', async () => {
    const waiting = await waits[3]!.make();
    const at = (await databaseNow()) + (AFTER + 1) * HOUR;
    await Promise.all([sweep(at), sweep(at, otherProcess.db), sweep(at), sweep(at, otherProcess.db)]);
    const sent = await sentFor(waiting.applicationId, waiting.link);
    expect(sent.emails).toHaveLength(1);
    expect(sent.pushes).toHaveLength(1);
    expect(await lastReminder(waiting)).toMatchObject({ count: 1 });
  });

  it('a new status starts a new wait: the client is reminded after staff approved, counted from their approval', async () => {
    const drawdownWait = await waits[3]!.make();
    const since = await databaseNow();
    await sweep(since + (AFTER + 1) * HOUR);
    await drawdownWait.act();
    const approvedAt = await databaseNow();
    // The client's wait began at the approval: nothing for them before its own 72 hours.
    await sweep(approvedAt + (AFTER - 1) * HOUR);
    const before = await sentFor(drawdownWait.applicationId, drawdownWait.link);
    expect(before.emails.map((email) => email.subject)).toEqual(['Reminder: a drawdown request waits for your review']);
    await sweep(approvedAt + (AFTER + 1) * HOUR);
    const after = await sentFor(drawdownWait.applicationId, drawdownWait.link);
    expect(after.emails.map((email) => email.subject)).toEqual([
      'Reminder: a drawdown request waits for your review',
      'Reminder: a drawdown waits for your approval',
    ]);
    expect(await lastReminder(drawdownWait)).toMatchObject({ count: 1 });
  });

  it('pushes nothing to a person who turned the kind off, and emails them all the same', async () => {
    const waiting = await waits[1]!.make();
    await server.db.insert(pushPreferences).values({ userId: waiting.userId, kindsOff: ['drawdown-awaits-client'] });
    await sweep((await databaseNow()) + (AFTER + 1) * HOUR);
    const sent = await sentFor(waiting.applicationId, waiting.link);
    expect(sent.emails).toHaveLength(1);
    expect(sent.pushes).toEqual([]);
  });

  it('sends nothing when the configuration turns reminders off (any setting 0)', async () => {
    const waiting = await waits[2]!.make();
    const at = (await databaseNow()) + 30 * 24 * HOUR;
    for (const off of [{ afterHours: 0 }, { everyHours: 0 }, { limit: 0 }]) {
      const config = { ...server.config, reminders: { ...server.config.reminders, ...off } };
      expect(await sendDueReminders(server.db, config, { clock: () => new Date(at) })).toBe(0);
    }
    expect(await sentFor(waiting.applicationId, waiting.link)).toEqual({ emails: [], pushes: [] });
  });

  it('shows the last reminder to staff only', async () => {
    const side = await buildSide(server, 20_000);
    const id = await requestDrawdown(side);
    await sweep((await databaseNow()) + (AFTER + 1) * HOUR);
    const asStaff = await server.call({ method: 'GET', url: `/api/drawdowns/${id}`, token: staff.token });
    expect(asStaff.json().lastReminder).toMatchObject({ count: 1, limit: 3 });
    for (const token of [side.tokens.lawyer, side.tokens.customer]) {
      const res = await server.call({ method: 'GET', url: `/api/drawdowns/${id}`, token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).not.toHaveProperty('lastReminder');
    }
  });
});
