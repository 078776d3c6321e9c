import { formatDateTime } from './formats';

/** When the last reminder of a record's current wait went out, and how many of how many (the contract's LastReminder). */
export interface LastReminderFacts {
  sentAt: string;
  count: number;
  limit: number;
}

/**
 * What staff read on an application's or a drawdown's page (docs/decisions.md 698):
 * 'Last reminder sent 26/11/2026 09:00 (2 of 3)', in the portal's date and time format.
 */
export function lastReminderText(reminder: LastReminderFacts): string {
  return `Last reminder sent ${formatDateTime(reminder.sentAt)} (${reminder.count} of ${reminder.limit})`;
}
