import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { formatMoney } from '../../../shared/rules/formats';
import { toPounds } from '../../../shared/rules/money';
import type { DrawdownStatus } from '../../../shared/rules/statuses';
import { tellParties, type Recipient } from '../loans/loan-parties';

/** Who hears of each change besides the lawyer, who hears of every one: whose turn it is next, or who waited. */
const toldOf: Record<DrawdownStatus, Recipient[]> = {
  requested: ['admin'],
  providerApproved: ['lawyer', 'customer'],
  providerRejected: ['lawyer'],
  customerApproved: ['lawyer', 'admin'],
  customerRejected: ['lawyer', 'admin'],
  paid: ['lawyer', 'customer'],
};

const news: Record<DrawdownStatus, { subject: string; body: string }> = {
  requested: { subject: 'A drawdown was requested', body: 'was requested and waits for the provider’s review.' },
  providerApproved: {
    subject: 'A drawdown waits for the client’s approval',
    body: 'was approved by the provider. The client can now review and approve it.',
  },
  providerRejected: { subject: 'A drawdown was rejected', body: 'was rejected by the provider.' },
  customerApproved: { subject: 'The client approved a drawdown', body: 'was approved by the client and waits for payment.' },
  customerRejected: { subject: 'The client rejected a drawdown', body: 'was rejected by the client.' },
  paid: { subject: 'A drawdown was paid', body: 'was paid by bank transfer.' },
};

/** Tells everyone concerned that a drawdown is now in `status` (in the caller's transaction). */
export function tellDrawdownStatus(
  db: Database,
  config: Config,
  drawdown: { id: number; applicationId: number; amountPence: number; firstName: string; lastName: string },
  status: DrawdownStatus,
) {
  const words = news[status];
  const what = `The drawdown of ${formatMoney(toPounds(drawdown.amountPence))} for ${drawdown.firstName} ${drawdown.lastName}`;
  return tellParties(db, config, drawdown.applicationId, toldOf[status], {
    subject: words.subject,
    heading: words.subject,
    body: `${what} ${words.body}`,
    action: 'Open drawdown',
    path: `/drawdowns/${drawdown.id}`,
  });
}

/** Tells the provider that a requested drawdown was changed by the lawyer. */
export function tellDrawdownChanged(
  db: Database,
  config: Config,
  drawdown: { id: number; applicationId: number; amountPence: number; firstName: string; lastName: string },
) {
  return tellParties(db, config, drawdown.applicationId, ['admin'], {
    subject: 'A drawdown request was changed',
    heading: 'A drawdown request was changed',
    body: `The drawdown request for ${drawdown.firstName} ${drawdown.lastName} was changed by the lawyer and is now for ${formatMoney(toPounds(drawdown.amountPence))}.`,
    action: 'Open drawdown',
    path: `/drawdowns/${drawdown.id}`,
  });
}
