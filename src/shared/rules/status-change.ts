import * as v from 'valibot';
import { formatDate, formatDateTime } from './formats';
import { applicationStatuses, applicationStatusLabels, type ApplicationStatus } from './statuses';

/**
 * The application's last change of status, as a refusal carries it (`details.statusChange`, 409
 * notEditable or conflict: docs/decisions.md 431), and the sentence that tells the user what
 * happened meanwhile: who, what and when, in their own terms.
 */

export const statusChangeSchema = v.object({
  status: v.picklist(applicationStatuses),
  at: v.pipe(v.string(), v.isoTimestamp()),
  by: v.picklist(['you', 'client', 'lawyer', 'provider']),
  name: v.optional(v.string()),
});
export type StatusChange = v.InferOutput<typeof statusChangeSchema>;

/** The status change a refusal's details carry (as sent or as kept on the device), or null. */
export function statusChangeOf(details: unknown): StatusChange | null {
  const change = (details as { statusChange?: unknown } | null | undefined)?.statusChange;
  const parsed = v.safeParse(statusChangeSchema, change);
  return parsed.success ? parsed.output : null;
}

/** Who reads the sentence: the wording addresses the lawyer's client and the client's lawyer. */
type Reader = 'lawyer' | 'customer';

function who({ by, name }: StatusChange, reader: Reader): string {
  switch (by) {
    case 'you':
      return 'You';
    case 'client':
      if (reader === 'lawyer') return name ? `${name} (your client)` : 'Your client';
      return name ? `${name} (client)` : 'The client';
    case 'lawyer':
      if (reader === 'customer') return name ? `${name} (your lawyer)` : 'Your lawyer';
      return name ? `${name} (lawyer)` : 'The lawyer';
    case 'provider':
      return 'The provider';
  }
}

const done: Partial<Record<ApplicationStatus, string>> = {
  submitted: 'submitted this application',
  providerAccepted: 'accepted this application',
  providerRejected: 'rejected this application',
  esignPrepared: 'prepared this application’s documents for signing',
  customerNotified: 'sent this application’s documents for signing',
  customerAccepted: 'signed this application’s documents',
  customerRejected: 'withdrew this application',
};

/** 'Chris Walker (your client) submitted this application on 25/11/2026 at 14:05.' (UK time). */
export function statusChangeSentence(change: StatusChange, reader: Reader): string {
  const what = done[change.status] ?? `moved this application to ‘${applicationStatusLabels[change.status]}’`;
  const time = formatDateTime(change.at).split(' ')[1] ?? '';
  return `${who(change, reader)} ${what} on ${formatDate(change.at)} at ${time}.`;
}
