import { Link } from 'react-router-dom';
import './sync-status.css';
import { paths } from '../routing/paths';
import { OFFLINE_TEXT, syncStatusText, useSyncStatus } from './use-sync-status';

/**
 * "All changes saved", "N forms not saved yet", "N changes waiting for a connection", "Syncing…"
 * or "Needs your attention", with "Offline" before it as soon as the device is offline, announced
 * politely to screen readers as it changes. It is a link to the list of what waits on the device
 * (decision 342).
 */
export function SyncStatus() {
  const status = useSyncStatus();
  const saved = status.state === 'saved';
  return (
    <div
      className={`sync-status sync-status--${status.state}${status.offline ? ' sync-status--offline' : ''}`}
      data-testid="sync-status"
    >
      <Link className="sync-status__link" to={paths.changes.url()}>
        <span className="sync-status__dot" aria-hidden="true" />
        <span className="sync-status__text" role="status" aria-live="polite">
          {status.offline ? <span className="sync-status__offline">{OFFLINE_TEXT}</span> : null}
          {status.offline && !saved ? <span aria-hidden="true"> · </span> : null}
          {status.offline && saved ? null : <span>{syncStatusText(status)}</span>}
        </span>
      </Link>
    </div>
  );
}
