import { applicationStatusLabels } from '../../../shared/rules/statuses';
import type { Client } from '../../admin-kit/calls';

/**
 * A client's one case in words, for the list and the client's page: whether it still runs and
 * where it stands, 'Active case: submitted' or 'Case ended: client rejected'. A count ('0 active
 * cases') told staff nothing about a client whose only case was refused (docs/decisions.md 448).
 */
export function clientCaseText(client: Pick<Client, 'activeCases' | 'status'>): string {
  const status = applicationStatusLabels[client.status];
  return client.activeCases > 0 ? `Active case: ${status}` : `Case ended: ${status}`;
}
