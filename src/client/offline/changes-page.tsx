import { Link } from 'react-router-dom';
import { errorMessages, messageForCode, uploadMessage } from '../../shared/rules/error-codes';
import { formatDateTime } from '../../shared/rules/formats';
import { Page } from '../ui/page';
import { useWaiting, type WaitingItem, type WaitingReason } from './attention';
import { OFFLINE_TEXT, useSyncStatus } from './use-sync-status';
import './changes-page.css';

/** The words for why an item waits. */
export function waitingReasonText(reason: WaitingReason): string {
  switch (reason.type) {
    case 'refused':
      return `Not saved: ${(errorMessages as Record<string, string>)[reason.code] ?? messageForCode(reason.code)}`;
    case 'conflict':
      return `Not saved: ${errorMessages.conflict} Choose which values to keep.`;
    case 'failedUpload':
      return `Not uploaded: ${reason.code ? uploadMessage(reason.code, reason.fileName) : reason.fileName}`;
    case 'queued':
      return 'Kept on this device, sent once you are back online.';
    case 'unsaved':
      return 'Typed on this device, not saved yet.';
  }
}

function WaitingList({ items, action }: { items: WaitingItem[]; action: string }) {
  return (
    <ul className="changes-list">
      {items.map((item) => (
        <li key={item.id} className="changes-list__item">
          <span className="changes-list__label">{item.place?.label ?? 'A change of this device'}</span>
          <span className="changes-list__reason">{waitingReasonText(item.reason)}</span>
          <span className="changes-list__meta">
            {item.at > 0 ? <span>{formatDateTime(item.at)}</span> : null}
            {item.place ? <Link to={item.place.href}>{action}</Link> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * /changes: what waits on this device for the user, reached from the header's status (decision
 * 342). What the server refused comes first, each with a link to where it is fixed; then the writes
 * waiting for a connection; then the forms typed and not saved yet.
 */
export default function ChangesPage() {
  const waiting = useWaiting();
  const status = useSyncStatus();
  const empty = waiting && waiting.attention.length + waiting.queued.length + waiting.unsaved.length === 0;
  return (
    <Page title="Changes on this device">
      {status.offline ? (
        <p className="changes-offline" role="status">
          {OFFLINE_TEXT}: changes are kept on this device and sent once you are back online.
        </p>
      ) : null}
      {empty ? <p>All changes saved. Nothing is waiting on this device.</p> : null}
      {waiting && waiting.attention.length > 0 ? (
        <section aria-labelledby="changes-attention">
          <h2 id="changes-attention">Needs your attention</h2>
          <WaitingList items={waiting.attention} action="fix it" />
        </section>
      ) : null}
      {waiting && waiting.queued.length > 0 ? (
        <section aria-labelledby="changes-queued">
          <h2 id="changes-queued">Waiting for a connection</h2>
          <WaitingList items={waiting.queued} action="open" />
        </section>
      ) : null}
      {waiting && waiting.unsaved.length > 0 ? (
        <section aria-labelledby="changes-unsaved">
          <h2 id="changes-unsaved">Not saved yet</h2>
          <WaitingList items={waiting.unsaved} action="continue" />
        </section>
      ) : null}
    </Page>
  );
}
