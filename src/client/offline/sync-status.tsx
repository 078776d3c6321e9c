import './sync-status.css';
import { syncStatusText, useSyncStatus } from './sync-engine';

/**
 * "All changes saved", "N changes waiting for a connection", "Syncing…" or "Needs your attention",
 * announced politely to screen readers as it changes.
 */
export function SyncStatus() {
  const status = useSyncStatus();
  return (
    <div className={`sync-status sync-status--${status.state}`} data-testid="sync-status">
      <span className="sync-status__dot" aria-hidden="true" />
      <span className="sync-status__text" role="status" aria-live="polite">
        {syncStatusText(status)}
      </span>
    </div>
  );
}
