import { useLocation } from 'react-router-dom';
import { formatDateTime } from '../../shared/rules/formats';
import { useQueuedFor } from './attention';
import { WAITING_TITLE } from './waiting-for-page-text';

/** The user's writes waiting in the outbox that concern this page (decision 404); ReadStatus shows it. */
export default function WaitingForPage() {
  const { pathname } = useLocation();
  const waiting = useQueuedFor(pathname);
  if (waiting.length === 0) return null;
  return (
    <div className="read-status__waiting">
      <p className="read-status__waiting-title">{WAITING_TITLE}</p>
      <ul className="read-status__waiting-list">
        {waiting.map((item) => (
          <li key={item.id}>
            {item.place?.label ?? 'A change made on this device'}{' '}
            <span className="read-status__when">({formatDateTime(item.at)})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
