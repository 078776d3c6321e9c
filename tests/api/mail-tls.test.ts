import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '../../src/server/db/schema';
import { enqueueEmail } from '../../src/server/mail/outbox';
import { startMailSender } from '../../src/server/mail/sender';
import { smtpTransportOptions } from '../../src/server/mail/smtp-options';
import { startTestServer, type TestServer } from './harness';

// The mail server is another host (mail.example.test) as the settings name it; the test reaches it
// on this machine's loopback address, checking its certificate by that name (docs/decisions.md 541).

const HOST = 'mail.example.test';
let server: TestServer;
let tlsFiles: { key: Buffer; cert: Buffer };

beforeAll(async () => {
  server = await startTestServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-smtp-tls-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1',
    '-subj', `/CN=${HOST}`, '-addext', `subjectAltName=DNS:${HOST}`,
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
  ], { stdio: 'ignore' }); // prettier-ignore
  tlsFiles = { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) };
  fs.rmSync(dir, { recursive: true, force: true });
});
afterAll(async () => {
  await server.close();
});

interface Logins {
  /** Each AUTH the server received: the user name, the password, and whether the connection was encrypted. */
  seen: { user: string | undefined; pass: string | null | undefined; secure: boolean }[];
  delivered: number;
}

/** A real SMTP server (smtp-server) that takes any login, recording what reached it. */
async function startSmtp(options: SMTPServerOptions): Promise<{ port: number; logins: Logins; close(): Promise<void> }> {
  const logins: Logins = { seen: [], delivered: 0 };
  const smtp = new SMTPServer({
    ...options,
    key: tlsFiles.key,
    cert: tlsFiles.cert,
    // The server would take a login in clear: whether credentials go plain is the client's choice here.
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, session, callback) {
      logins.seen.push({ user: auth.username, pass: auth.password, secure: session.secure });
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        logins.delivered += 1;
        callback();
      });
    },
  });
  smtp.on('error', () => undefined);
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { port, logins, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** Sends one email through the mail sender with the options SMTP_URL gives; resolves when it was sent or failed. */
async function sendOne(smtpUrl: string, port: number, insecurePlain = false) {
  const options = smtpTransportOptions(smtpUrl.replace('PORT', String(port)), insecurePlain);
  const id = await enqueueEmail(server.db, {
    to: 'person@demo.test',
    subject: 'Hello',
    text: 'Hi',
    html: '<p>Hi</p>',
    userType: 'customer',
  });
  const stop = startMailSender(server.db, {
    smtp: { ...options, host: '127.0.0.1', tls: { ...options.tls, ca: [tlsFiles.cert], servername: HOST } },
    from: 'portal@demo.test',
    intervalMs: 20,
    log: () => undefined,
  });
  const row = async () => (await server.db.select().from(emails).where(eq(emails.id, id)))[0]!;
  try {
    await expect.poll(async () => Boolean((await row()).sentAt ?? (await row()).lastError), { timeout: 10_000 }).toBe(true);
  } finally {
    stop();
  }
  return { options, row: await row() };
}

describe('SMTP credentials for another host', () => {
  it('go over STARTTLS, which is required: a server that does not offer it gets no credentials and no mail', async () => {
    const smtp = await startSmtp({ disabledCommands: ['STARTTLS'] });
    try {
      const { options, row } = await sendOne(`smtp://mailer:secret@${HOST}:PORT`, smtp.port);
      expect(options.requireTLS).toBe(true);
      expect(row.sentAt).toBeNull();
      expect(row.lastError).toMatch(/STARTTLS/);
      expect(smtp.logins.seen).toEqual([]);
      expect(smtp.logins.delivered).toBe(0);
    } finally {
      await smtp.close();
    }
  });

  it('reach a server that offers STARTTLS encrypted, and the mail is sent', async () => {
    const smtp = await startSmtp({});
    try {
      const { row } = await sendOne(`smtp://mailer:secret@${HOST}:PORT`, smtp.port);
      expect(row.lastError).toBeNull();
      expect(row.sentAt).not.toBeNull();
      expect(smtp.logins.seen).toEqual([{ user: 'mailer', pass: 'secret', secure: true }]);
      expect(smtp.logins.delivered).toBe(1);
    } finally {
      await smtp.close();
    }
  });

  it('reach an implicit-TLS server (smtps://) encrypted', async () => {
    const smtp = await startSmtp({ secure: true });
    try {
      const { row } = await sendOne(`smtps://mailer:secret@${HOST}:PORT`, smtp.port);
      expect(row.sentAt).not.toBeNull();
      expect(smtp.logins.seen).toEqual([{ user: 'mailer', pass: 'secret', secure: true }]);
    } finally {
      await smtp.close();
    }
  });

  it('go plain only with SMTP_INSECURE_PLAIN=true (tests)', async () => {
    const smtp = await startSmtp({ disabledCommands: ['STARTTLS'] });
    try {
      const { row } = await sendOne(`smtp://mailer:secret@${HOST}:PORT`, smtp.port, true);
      expect(row.sentAt).not.toBeNull();
      expect(smtp.logins.seen).toEqual([{ user: 'mailer', pass: 'secret', secure: false }]);
    } finally {
      await smtp.close();
    }
  });
});
