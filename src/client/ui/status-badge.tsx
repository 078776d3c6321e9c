import './status-badge.css';

/**
 * A record's status as a coloured pill. `kind` and `status` pick the colour (status-badge.css:
 * `.badge--<kind>-<status>`); `label` is the words the spec shows for it.
 */
export function StatusBadge({ kind, status, label }: { kind: 'loan' | 'drawdown'; status: string; label: string }) {
  return <span className={`badge badge--${kind}-${status}`}>{label}</span>;
}
