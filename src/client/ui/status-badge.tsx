import { loanStatusLabels } from '../../shared/rules/loan-labels';
import {
  applicationStatusLabels,
  drawdownStatusLabels,
  type ApplicationStatus,
  type DrawdownStatus,
  type LoanStatus,
} from '../../shared/rules/statuses';
import './status-badge.css';

type RecordStatus =
  | { kind: 'application'; status: ApplicationStatus }
  | { kind: 'loan'; status: LoanStatus }
  | { kind: 'drawdown'; status: DrawdownStatus };

const labels = {
  application: applicationStatusLabels,
  loan: loanStatusLabels,
  drawdown: drawdownStatusLabels,
} as const;

/**
 * A record's status as a coloured pill, in the words the spec shows for it: the one way every
 * screen draws a status (status-badge.css: `.badge--<kind>-<status>`). `recordStatus` marks the
 * status of the page's own record: the focus goes there after an action that changed it
 * (focus-return.ts).
 */
export function StatusBadge({ recordStatus = false, ...record }: RecordStatus & { recordStatus?: boolean }) {
  const label = (labels[record.kind] as Record<string, string>)[record.status];
  return (
    <span className={`badge badge--${record.kind}-${record.status}`} {...(recordStatus ? { 'data-record-status': '' } : {})}>
      {label}
    </span>
  );
}

/**
 * A record made on this device that the server does not hold yet, in the same pill: waiting for
 * a connection, or refused and waiting for the user.
 */
export function LocalRecordBadge({ refused }: { refused: boolean }) {
  return refused ? (
    <span className="badge badge--attention">Needs your attention</span>
  ) : (
    <span className="badge badge--waiting">Waiting for a connection</span>
  );
}
