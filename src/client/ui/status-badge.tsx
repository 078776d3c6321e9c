import './status-badge.css';

/**
 * A record's status as a coloured pill. `kind` and `status` pick the colour (status-badge.css:
 * `.badge--<kind>-<status>`); `label` is the words the spec shows for it. `recordStatus` marks the
 * status of the page's own record: the focus goes there after an action that changed it
 * (focus-return.ts).
 */
export function StatusBadge({
  kind,
  status,
  label,
  recordStatus = false,
}: {
  kind: 'loan' | 'drawdown';
  status: string;
  label: string;
  recordStatus?: boolean;
}) {
  return (
    <span className={`badge badge--${kind}-${status}`} {...(recordStatus ? { 'data-record-status': '' } : {})}>
      {label}
    </span>
  );
}
