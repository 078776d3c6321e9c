import { formatApplicationId, formatDate, formatMoney, shortName } from '../../../shared/rules/formats';
import { toPounds } from '../../../shared/rules/money';
import type { NotificationKind } from '../../../shared/rules/notification-kinds';
import type { NoticeWords } from '../loans/loan-parties';

/** The facts a reminder names: the record, its case and since when it waits. */
export interface WaitingRecord {
  id: number;
  applicationId: number;
  firstName: string;
  lastName: string;
  /** Drawdowns only. */
  amountPence: number | null;
  waitingSince: Date;
}

/**
 * The reminder emails' words (docs/decisions.md 697): each speaks as the notice it follows did,
 * names the case and since when it waits, and links to the page where the reader acts.
 */
export const reminderWords = {
  /** The client's signature: the documents staff notified them of. */
  'documents-ready': (record: WaitingRecord): NoticeWords => ({
    subject: 'Reminder: your documents are ready to sign',
    heading: 'Your documents are still waiting for your signature',
    body: `Your documents have been ready to sign since ${formatDate(record.waitingSince)}. You can view and sign them on the portal; your loan is made once they are signed.`,
    action: 'View and sign documents',
    path: `/applications/${record.id}/application-esign-prepared`,
  }),
  /** The client's approval of a drawdown the provider approved. */
  'drawdown-awaits-client': (record: WaitingRecord): NoticeWords => ({
    subject: 'Reminder: a drawdown waits for your approval',
    heading: 'A drawdown still waits for your approval',
    body: `The provider approved a drawdown of ${formatMoney(toPounds(record.amountPence ?? 0))} from your loan on ${formatDate(record.waitingSince)}, requested by your lawyer. It is paid only once you approve it: please review it, then approve or reject it.`,
    action: 'Open drawdown',
    path: `/drawdowns/${record.id}`,
  }),
  /** Staff's review of a submitted application. */
  'application-submitted': (record: WaitingRecord): NoticeWords => ({
    subject: `Reminder: application ${formatApplicationId(record.id)} waits for your review`,
    heading: 'An application still waits for your review',
    body: `Application ${formatApplicationId(record.id)} (${shortName(record.firstName, record.lastName)}) was submitted on ${formatDate(record.waitingSince)} and waits for your review.`,
    action: 'Open application',
    path: `/applications/${record.id}/details`,
  }),
  /** Staff's review of a requested drawdown. */
  'drawdown-requested': (record: WaitingRecord): NoticeWords => ({
    subject: 'Reminder: a drawdown request waits for your review',
    heading: 'A drawdown request still waits for your review',
    body: `The lawyer of ${record.firstName} ${record.lastName} requested a drawdown of ${formatMoney(toPounds(record.amountPence ?? 0))} on ${formatDate(record.waitingSince)}. It waits for your review.`,
    action: 'Open drawdown',
    path: `/drawdowns/${record.id}`,
  }),
} as const satisfies Partial<Record<NotificationKind, (record: WaitingRecord) => NoticeWords>>;

/** The kinds that are reminded of. */
export type ReminderKind = keyof typeof reminderWords;

/**
 * A reminder's push: the sentence of the notice it follows (docs/decisions.md 682: references
 * only, nothing a lock screen must not show), marked as a reminder.
 */
export function reminderPush(notice: string): string {
  return `Reminder: ${notice.charAt(0).toLowerCase()}${notice.slice(1)}`;
}
