import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { formatMoney } from '../../../shared/rules/formats';
import { toPounds } from '../../../shared/rules/money';
import type { DrawdownStatus } from '../../../shared/rules/statuses';
import { notifyByPush } from '../../push/notify';
import type { PushSubject } from '../../push/messages';
import { tellParties, type Recipient } from '../loans/loan-parties';

interface NoticeDrawdown {
  id: number;
  loanId: number;
  applicationId: number;
  amountPence: number;
  firstName: string;
  lastName: string;
}

interface Words {
  subject: string;
  body: string;
}

/**
 * Who hears of each change, and in which words: whose turn it is next, or who waited (the one who
 * acted is not told). Each reader has words of their own (docs/decisions.md 450): the lawyer reads
 * of 'your client Cara Jones', the client of 'your loan' and of what she is to do, the provider's
 * staff of the client by name. `amount` is '£2,500.00'; `client` the client's name.
 */
const news: Record<DrawdownStatus, Partial<Record<Recipient, (amount: string, client: string) => Words>>> = {
  requested: {
    admin: (amount, client) => ({
      subject: 'A drawdown was requested',
      body: `The lawyer of ${client} has requested a drawdown of ${amount}. It waits for your review.`,
    }),
  },
  providerApproved: {
    lawyer: (amount, client) => ({
      subject: 'A drawdown waits for your client’s approval',
      body: `The provider has approved the drawdown of ${amount} for your client ${client}. Your client can now review and approve it.`,
    }),
    customer: (amount) => ({
      subject: 'A drawdown waits for your approval',
      body: `The provider has approved a drawdown of ${amount} from your loan, requested by your lawyer. Please review it, then approve or reject it.`,
    }),
  },
  providerRejected: {
    lawyer: (amount, client) => ({
      subject: 'A drawdown was rejected',
      body: `The provider has rejected the drawdown of ${amount} for your client ${client}.`,
    }),
  },
  customerApproved: {
    lawyer: (amount, client) => ({
      subject: 'Your client approved a drawdown',
      body: `Your client ${client} has approved the drawdown of ${amount}. It now waits for payment.`,
    }),
    admin: (amount, client) => ({
      subject: 'The client approved a drawdown',
      body: `${client} has approved the drawdown of ${amount}. It is ready to be paid.`,
    }),
  },
  customerRejected: {
    lawyer: (amount, client) => ({
      subject: 'Your client rejected a drawdown',
      body: `Your client ${client} has rejected the drawdown of ${amount}.`,
    }),
    admin: (amount, client) => ({
      subject: 'The client rejected a drawdown',
      body: `${client} has rejected the drawdown of ${amount}.`,
    }),
  },
  paid: {
    lawyer: (amount, client) => ({
      subject: 'A drawdown was paid',
      body: `The drawdown of ${amount} for your client ${client} has been paid by bank transfer.`,
    }),
    customer: (amount) => ({
      subject: 'A drawdown from your loan was paid',
      body: `The drawdown of ${amount} from your loan has been paid by bank transfer.`,
    }),
  },
};

type DrawdownPush = Extract<PushSubject, { drawdownId: number }>;
type DrawdownPushKind = Exclude<DrawdownPush['kind'], 'drawdown-rejected'>;

/**
 * The push notifications of each change, to whoever acts next or waited (docs/decisions.md 683):
 * staff of a request and of the client's approval; the client of the provider's approval; the
 * lawyer of an approval, a rejection (by the provider or the client) and the payment.
 */
const pushes: Record<DrawdownStatus, readonly (DrawdownPushKind | { rejectedBy: 'provider' | 'client' })[]> = {
  requested: ['drawdown-requested'],
  providerApproved: ['drawdown-awaits-client', 'drawdown-approved'],
  providerRejected: [{ rejectedBy: 'provider' }],
  customerApproved: ['drawdown-client-approved'],
  customerRejected: [{ rejectedBy: 'client' }],
  paid: ['drawdown-paid'],
};

/** Tells everyone concerned that a drawdown is now in `status` (in the caller's transaction), by email and push. */
export async function tellDrawdownStatus(db: Database, config: Config, drawdown: NoticeDrawdown, status: DrawdownStatus) {
  const record = { applicationId: drawdown.applicationId, loanId: drawdown.loanId, drawdownId: drawdown.id };
  for (const push of pushes[status])
    await notifyByPush(
      db,
      typeof push === 'string' ? { kind: push, ...record } : { kind: 'drawdown-rejected', by: push.rejectedBy, ...record },
    );
  const amount = formatMoney(toPounds(drawdown.amountPence));
  const client = `${drawdown.firstName} ${drawdown.lastName}`;
  const readers = news[status];
  const recipients = (Object.keys(readers) as Recipient[]).filter((recipient) => readers[recipient]);
  return tellParties(db, config, drawdown.applicationId, recipients, (recipient) => {
    const words = readers[recipient]!(amount, client);
    return {
      subject: words.subject,
      heading: words.subject,
      body: words.body,
      action: 'Open drawdown',
      path: `/drawdowns/${drawdown.id}`,
    };
  });
}

/** Tells the provider that a requested drawdown was changed by the lawyer. */
export function tellDrawdownChanged(db: Database, config: Config, drawdown: NoticeDrawdown) {
  return tellParties(db, config, drawdown.applicationId, ['admin'], () => ({
    subject: 'A drawdown request was changed',
    heading: 'A drawdown request was changed',
    body: `The lawyer of ${drawdown.firstName} ${drawdown.lastName} has changed their drawdown request. It is now for ${formatMoney(toPounds(drawdown.amountPence))} and waits for your review.`,
    action: 'Open drawdown',
    path: `/drawdowns/${drawdown.id}`,
  }));
}
