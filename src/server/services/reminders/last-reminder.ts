import type { ReminderConfig } from '../../config';
import type { LastReminderFacts } from '../../../shared/rules/reminders';

/**
 * The last reminder of the record's current wait, for staff's view of the record (docs/decisions.md
 * 698): null when none went out since the record entered its status.
 */
export function lastReminderOf(
  row: { remindersSent: number; lastReminderAt: Date | null },
  reminders: ReminderConfig,
): LastReminderFacts | null {
  if (row.remindersSent === 0 || row.lastReminderAt === null) return null;
  // A limit lowered since keeps the count true: never "3 of 2".
  return {
    sentAt: row.lastReminderAt.toISOString(),
    count: row.remindersSent,
    limit: Math.max(reminders.limit, row.remindersSent),
  };
}
