import { lastReminderText, type LastReminderFacts } from '../../shared/rules/reminders';
import './last-reminder.css';

/**
 * Staff's line on an application or a drawdown that keeps waiting: when the last reminder went out,
 * and how many of how many (docs/decisions.md 698). Nothing when none went out, or for anyone the
 * server does not send it to.
 */
export function LastReminder({ reminder }: { reminder: LastReminderFacts | null | undefined }) {
  if (!reminder) return null;
  return (
    <p className="last-reminder" data-testid="last-reminder">
      {lastReminderText(reminder)}
    </p>
  );
}
