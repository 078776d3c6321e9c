import { describe, expect, it } from 'vitest';
import { lastReminderText } from './reminders';

describe('lastReminderText', () => {
  it('says when, in UK time, and how many of how many', () => {
    expect(lastReminderText({ sentAt: '2026-11-26T09:00:00.000Z', count: 2, limit: 3 })).toBe(
      'Last reminder sent 26/11/2026 09:00 (2 of 3)',
    );
    // British Summer Time: 08:30 UTC is 09:30 in London.
    expect(lastReminderText({ sentAt: '2026-06-01T08:30:00.000Z', count: 1, limit: 3 })).toBe(
      'Last reminder sent 01/06/2026 09:30 (1 of 3)',
    );
  });
});
