import { sql, type SQL } from 'drizzle-orm';
import { remindersOn, type Config } from '../../config';
import { queryRows, type Database } from '../../db/connection';
import { pushMessage, type PushSubject } from '../../push/messages';
import { pushRecipients } from '../../push/notify';
import { enqueuePush } from '../../push/outbox';
import { notificationAudience } from '../../../shared/rules/notification-kinds';
import type { ApplicationStatus, DrawdownStatus } from '../../../shared/rules/statuses';
import { recordAudit } from '../audit';
import { tellParties } from '../loans/loan-parties';
import { reminderPush, reminderWords, type ReminderKind, type WaitingRecord } from './reminder-words';
import { repeatInBackground } from '../../background/repeat';

/** One thing that can wait on a person: a record in a status, and who it waits on. */
interface Wait {
  kind: ReminderKind;
  record: 'application' | 'drawdown';
  status: ApplicationStatus | DrawdownStatus;
  /** What the push names and links to: the notice it follows (docs/decisions.md 682). */
  subject(row: Claimed): PushSubject;
}

/**
 * The four waits that are reminded of (docs/decisions.md 693): the client's signature (staff
 * notified them the documents are ready), the client's approval of a drawdown the provider
 * approved, and staff's review of a submitted application and of a requested drawdown. Each
 * reminder has the kind of the notice it follows, and goes to that kind's audience.
 */
export const reminderWaits: readonly Wait[] = [
  {
    kind: 'documents-ready',
    record: 'application',
    status: 'customerNotified',
    subject: (row) => ({ kind: 'documents-ready', applicationId: row.application_id }),
  },
  {
    kind: 'drawdown-awaits-client',
    record: 'drawdown',
    status: 'providerApproved',
    subject: (row) => ({
      kind: 'drawdown-awaits-client',
      applicationId: row.application_id,
      loanId: row.loan_id!,
      drawdownId: row.id,
    }),
  },
  {
    kind: 'application-submitted',
    record: 'application',
    status: 'submitted',
    subject: (row) => ({ kind: 'application-submitted', applicationId: row.application_id }),
  },
  {
    kind: 'drawdown-requested',
    record: 'drawdown',
    status: 'requested',
    subject: (row) => ({
      kind: 'drawdown-requested',
      applicationId: row.application_id,
      loanId: row.loan_id!,
      drawdownId: row.id,
    }),
  },
];

/**
 * Where "now" comes from: the database's clock by default, so every process agrees on it; tests
 * give their own time to move it forward (docs/decisions.md 695).
 */
export type ReminderClock = () => Date;

// A batch is one transaction: on the embedded database it holds the one connection while it writes
// its reminders (about 8 ms each), so a backlog is sent in short turns between requests.
const BATCH = 25;

interface Claimed {
  id: number;
  application_id: number;
  /** Drawdowns only. */
  loan_id: number | null;
  first_name: string;
  last_name: string;
  client_user_id: number;
  amount_pence: number | null;
  status_changed_at: Date | string;
  reminders_sent: number;
}

/**
 * One pass: every record whose wait is due gets its next reminder (docs/decisions.md 694). Due
 * means: in the wait's status since `afterHours` with none sent yet, or `everyHours` after the last
 * one while fewer than `limit` went out; a new status starts a new wait (the database clears the
 * count with the status). Each batch is claimed with FOR UPDATE SKIP LOCKED in one transaction that
 * moves the record's count and writes the reminder's email and push rows to the outboxes, so
 * several processes never send one twice, a record being changed at that moment is left for the
 * next pass, and a restart loses nothing. Answers how many reminders went out.
 */
export async function sendDueReminders(db: Database, config: Config, options: { clock?: ReminderClock } = {}): Promise<number> {
  if (!remindersOn(config.reminders)) return 0;
  const now = options.clock ? sql`${options.clock().toISOString()}::timestamptz` : sql`now()`;
  let sent = 0;
  for (const wait of reminderWaits) {
    for (;;) {
      const claimed = await db.transaction(async (tx) => {
        const rows = await claimDue(tx, config, wait, now);
        if (rows.length > 0) await remind(tx, config, wait, rows);
        return rows.length;
      });
      sent += claimed;
      if (claimed < BATCH) break;
    }
  }
  return sent;
}

/** Moves the count of up to BATCH due records of the wait and answers them with what their reminder names. */
function claimDue(tx: Database, config: Config, wait: Wait, now: SQL): Promise<Claimed[]> {
  const { afterHours, everyHours, limit } = config.reminders;
  const table = sql.identifier(wait.record === 'application' ? 'applications' : 'drawdowns');
  const claim = sql`update ${table} set reminders_sent = reminders_sent + 1, last_reminder_at = ${now}
    where id in (select id from ${table} where status = ${wait.status}
      and ((reminders_sent = 0 and status_changed_at <= ${now} - ${afterHours} * interval '1 hour')
        or (reminders_sent between 1 and ${limit - 1} and last_reminder_at <= ${now} - ${everyHours} * interval '1 hour'))
      order by id limit ${BATCH} for update skip locked)
    returning id, status_changed_at, reminders_sent`;
  return wait.record === 'application'
    ? queryRows<Claimed>(
        tx,
        sql`with claimed as (${claim})
          select c.id, c.id as application_id, null::integer as loan_id, cl.first_name, cl.last_name, cl.user_id as client_user_id,
            null::integer as amount_pence, c.status_changed_at, c.reminders_sent
          from claimed c join applications a on a.id = c.id join clients cl on cl.id = a.client_id
          order by c.id`,
      )
    : queryRows<Claimed>(
        tx,
        sql`with claimed as (${claim})
          select c.id, a.id as application_id, d.loan_id, cl.first_name, cl.last_name, cl.user_id as client_user_id,
            d.amount_pence, c.status_changed_at, c.reminders_sent
          from claimed c join drawdowns d on d.id = c.id join loans l on l.id = d.loan_id
            join applications a on a.id = l.application_id join clients cl on cl.id = a.client_id
          order by c.id`,
      );
}

/** The claimed records' emails, pushes and audit entries, in the claim's transaction. */
async function remind(tx: Database, config: Config, wait: Wait, rows: readonly Claimed[]): Promise<void> {
  const audience = notificationAudience[wait.kind];
  // The email goes to the client of the case, or to the provider's address as staff notices do.
  const reader = audience === 'client' ? 'customer' : 'admin';
  for (const row of rows) {
    const record: WaitingRecord = {
      id: row.id,
      applicationId: row.application_id,
      firstName: row.first_name,
      lastName: row.last_name,
      amountPence: row.amount_pence,
      waitingSince: new Date(row.status_changed_at),
    };
    await tellParties(tx, config, record.applicationId, [reader], () => reminderWords[wait.kind](record));
    const message = pushMessage(wait.subject(row));
    for (const userId of await pushRecipients(tx, audience, row.application_id))
      await enqueuePush(tx, { userId, kind: message.kind, text: reminderPush(message.text), link: message.link });
    await recordAudit(tx, {
      actorUserId: null,
      entityType: wait.record,
      entityId: row.id,
      action: 'reminderSent',
      from: { status: wait.status, remindersSent: row.reminders_sent - 1 },
      to: { status: wait.status, remindersSent: row.reminders_sent, kind: wait.kind },
    });
  }
}

/** The sweep, every few minutes in every process (safe: claims skip what another holds). */
export function startReminders(
  db: Database,
  config: Config,
  log: (msg: string, err: unknown) => void,
  everyMs = 5 * 60 * 1000,
): () => void {
  if (!remindersOn(config.reminders)) return () => {};
  return repeatInBackground({ name: 'reminders', everyMs, log, run: () => sendDueReminders(db, config) });
}
