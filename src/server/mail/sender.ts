import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { repeatInBackground } from '../background/repeat';
import { queryRows, type Database } from '../db/connection';

interface Claimed {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
}

/** How long a claimed email is left alone before another process may try it again. */
const CLAIM_MS = 5 * 60_000;
const BATCH = 10;

/**
 * Sends the outbox by SMTP, with the options of smtpTransportOptions (TLS for credentials). Rows are claimed with SKIP LOCKED and a moved next_attempt_at,
 * so several server processes never send the same email twice.
 */
export function startMailSender(
  db: Database,
  options: { smtp: SMTPTransport.Options; from: string; intervalMs?: number; log: (msg: string, err?: unknown) => void },
): () => void {
  const transport = nodemailer.createTransport(options.smtp);
  const stop = repeatInBackground({
    name: 'mail sender',
    everyMs: options.intervalMs ?? 5_000,
    log: options.log,
    run: async () => {
      const claimed = await queryRows<Claimed>(
        db,
        sql`
          update emails set next_attempt_at = now() + ${CLAIM_MS} * interval '1 millisecond', attempts = attempts + 1
          where id in (select id from emails where sent_at is null and next_attempt_at <= now()
                       order by id limit ${BATCH} for update skip locked)
          returning id, to_address, subject, text_body, html_body, attempts`,
      );
      for (const email of claimed) {
        try {
          await transport.sendMail({
            from: options.from,
            to: email.to_address,
            subject: email.subject,
            text: email.text_body,
            html: email.html_body,
          });
          await db.execute(sql`update emails set sent_at = now(), last_error = null where id = ${email.id}`);
        } catch (err) {
          // Back off: 1, 2, 4 … minutes, at most an hour.
          const delayMs = Math.min(60_000 * 2 ** (email.attempts - 1), 3_600_000);
          await db.execute(sql`update emails set last_error = ${String(err).slice(0, 1000)},
            next_attempt_at = now() + ${delayMs} * interval '1 millisecond' where id = ${email.id}`);
          options.log(`email ${email.id} not sent`, err);
        }
      }
    },
  });
  return () => {
    stop();
    transport.close();
  };
}
