import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, isNull } from 'drizzle-orm';
import { emails } from '../../src/server/db/schema';
import { enqueueEmail } from '../../src/server/mail/outbox';
import { startMailSender } from '../../src/server/mail/sender';
import { smtpTransportOptions } from '../../src/server/mail/smtp-options';
import { startFakeSmtp } from './fake-smtp';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the mail sender', () => {
  it('sends the outbox by SMTP once, even with two senders running', async () => {
    const smtp = await startFakeSmtp();
    for (let i = 0; i < 5; i++) {
      await enqueueEmail(server.db, {
        to: `person${i}@demo.test`,
        subject: `Hello ${i}`,
        text: 'Hi',
        html: '<p>Hi</p>',
        userType: 'customer',
      });
    }
    const log = () => {};
    const stopA = startMailSender(server.db, {
      smtp: smtpTransportOptions(smtp.url),
      from: 'portal@demo.test',
      intervalMs: 20,
      log,
    });
    const stopB = startMailSender(server.db, {
      smtp: smtpTransportOptions(smtp.url),
      from: 'portal@demo.test',
      intervalMs: 20,
      log,
    });
    try {
      await until(async () => (await server.db.select().from(emails).where(isNull(emails.sentAt))).length === 0);
    } finally {
      stopA();
      stopB();
    }
    expect(smtp.received).toHaveLength(5);
    expect(new Set(smtp.received.map((m) => m.to.join()))).toHaveProperty('size', 5);
    expect(smtp.received[0]!.data).toContain('Subject: Hello');
    await smtp.close();
  });

  it('keeps an email it could not send, with the error, for a later try', async () => {
    const id = await enqueueEmail(server.db, {
      to: 'late@demo.test',
      subject: 'Later',
      text: 'Hi',
      html: '<p>Hi</p>',
      userType: 'admin',
    });
    // Nothing listens on port 9 of the loopback address.
    const stop = startMailSender(server.db, {
      smtp: smtpTransportOptions('smtp://127.0.0.1:9'),
      from: 'portal@demo.test',
      intervalMs: 20,
      log: () => {},
    });
    try {
      await until(async () => Boolean((await server.db.select().from(emails).where(eq(emails.id, id)))[0]?.lastError));
    } finally {
      stop();
    }
    const [row] = await server.db.select().from(emails).where(eq(emails.id, id));
    expect(row!.sentAt).toBeNull();
    expect(row!.attempts).toBe(1);
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  });
});
