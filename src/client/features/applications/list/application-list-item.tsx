import { Link } from 'react-router-dom';
import type { ApplicationStatus } from '../../../../shared/rules/statuses';
import { formatApplicationId, formatDate, shortName } from '../../../../shared/rules/formats';
import { AttentionFlag } from '../../../ui/attention-flag';
import { LocalRecordBadge, StatusBadge } from '../../../ui/status-badge';

export interface ApplicationListRow {
  id: number | string;
  name: string;
  surname: string;
  caseRef: string | null;
  startDate: string;
  status: ApplicationStatus;
}

/**
 * One application: name, formatted id, case reference, status and date (spec section 2). With
 * `attentionHref` (a write of it was refused on this device), flagged, and opening where it is fixed.
 */
export function ApplicationListItem({
  row,
  href,
  attentionHref,
}: {
  row: ApplicationListRow;
  href: string;
  attentionHref?: string;
}) {
  return (
    <li className="application-item">
      <Link className="application-item__link" to={attentionHref ?? href}>
        {/* Spaces between the parts: the link's accessible name reads as words. */}
        <span className="application-item__name">
          {shortName(row.name, row.surname)}
          {attentionHref ? <AttentionFlag /> : null}
        </span>{' '}
        <span className="application-item__id">{formatApplicationId(row.id)}</span>{' '}
        <span className="application-item__ref">{row.caseRef ?? ''}</span> <StatusBadge kind="application" status={row.status} />{' '}
        <span className="application-item__date">{formatDate(row.startDate)}</span>
      </Link>
    </li>
  );
}

/**
 * An application created on this device that the server does not hold yet: waiting for a
 * connection, or refused (the client details need correcting: the link opens them).
 */
export function WaitingApplicationItem({
  name,
  surname,
  href,
  refused,
}: {
  name: string;
  surname: string;
  href: string;
  refused: boolean;
}) {
  return (
    <li className="application-item application-item--waiting">
      <Link className="application-item__link" to={href}>
        <span className="application-item__name">{shortName(name, surname) || 'New application'}</span>{' '}
        <LocalRecordBadge refused={refused} />
        <span className="application-item__date" />
      </Link>
    </li>
  );
}

/** Keeps the list's height while the first page loads: nothing moves when it arrives. */
export function PlaceholderItem() {
  return (
    <li className="application-item application-item--placeholder" aria-hidden="true">
      <span className="application-item__link">
        <span className="application-item__name placeholder-text" />
        <span className="application-item__id placeholder-text" />
        <span className="application-item__ref placeholder-text" />
        <span className="status placeholder-text" />
        <span className="application-item__date placeholder-text" />
      </span>
    </li>
  );
}
