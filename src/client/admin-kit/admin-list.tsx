import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useOnline } from '../api/connection';
import { ReadStatus, readPartMessage, type ReadShown } from '../offline/read-status';
import { ListEnd, type Noun } from '../ui/list-end';
import type { Loaded } from './calls';
import '../ui/record-list.css';
import './admin-kit.css';

/** The list screens of the administration areas: the overview counts and the list with its paging. */

export interface Stat {
  label: string;
  value: ReactNode;
}

/** The overview counts at the top of a list: each a number under its label; '–' while loading. */
export function Overview({ stats, label, children }: { stats: readonly Stat[]; label: string; children?: ReactNode }) {
  return (
    <section className="admin-overview" aria-label={label}>
      <dl className="admin-overview__stats">
        {stats.map((stat) => (
          <div key={stat.label} className="admin-overview__stat">
            <dt className="admin-overview__label">{stat.label}</dt>
            <dd className="admin-overview__value">{stat.value ?? '–'}</dd>
          </div>
        ))}
      </dl>
      {children ? <div className="admin-overview__actions">{children}</div> : null}
    </section>
  );
}

/** '1 active case', '3 active cases'. */
export function activeCasesText(count: number): string {
  return `${count} active ${count === 1 ? 'case' : 'cases'}`;
}

/** A person's name as the lists show it. */
export function fullName(first: string | null | undefined, last: string | null | undefined): string {
  return [first, last].filter(Boolean).join(' ');
}

export interface AdminRow {
  id: number;
  href: string;
  title: string;
  detail?: string;
  activeCases: number;
  /** The cases in words when a count says too little (a client's one case); else 'N active cases'. */
  cases?: string;
}

/** One row of a list: a whole-row link (at least 44 px high) with its active cases on the right. */
function AdminItem({ row }: { row: AdminRow }) {
  return (
    <li className={row.cases ? 'admin-item admin-item--described' : 'admin-item'}>
      <Link className="admin-item__link" to={row.href}>
        <span className="admin-item__title">{row.title}</span> <span className="admin-item__detail">{row.detail ?? ''}</span>{' '}
        <span className={row.activeCases > 0 ? 'admin-item__cases admin-item__cases--active' : 'admin-item__cases'}>
          {row.cases ?? activeCasesText(row.activeCases)}
        </span>
      </Link>
    </li>
  );
}

interface AdminListProps {
  /** The list's name for screen readers ('Law firms'). */
  label: string;
  /** Its records in words ('law firm' / 'law firms'), for an empty page. */
  noun: Noun;
  state: Loaded<{ total: number; page: number; pageSize: number }>;
  /** The read behind `state` (useLoad's `read`): offline, the saved copy's time and what waits (decision 400). */
  read: ReadShown;
  /** A list inside a record's page, whose own ReadStatus speaks for the page: one line when the list is missing. */
  part?: boolean;
  rows: readonly AdminRow[];
  fetching: boolean;
  page: number;
  hrefFor: (page: number) => string;
  /** The line shown when there are no records at all ('No law firms yet.'). */
  empty: string;
}

/**
 * A page of a list: placeholders of the same height while the first page loads, the rows, the
 * page links, and above them what the read layer says when the list is not a fresh answer.
 * An empty page says why (ui/list-end.tsx).
 */
export function AdminList({ label, noun, state, read, part = false, rows, fetching, page, hrefFor, empty }: AdminListProps) {
  const online = useOnline();
  const missing = part ? readPartMessage(read, online) : null;
  const data = state.status === 'ready' ? state.data : null;
  return (
    <section className="admin-list" aria-label={label} aria-busy={fetching || undefined}>
      {part ? missing ? <p className="list-note">{missing}</p> : null : <ReadStatus read={read} />}
      {state.status === 'loading' ? (
        <ul className="admin-list__items" aria-hidden="true">
          {Array.from({ length: 3 }, (_, index) => (
            <li key={index} className="admin-item admin-item--placeholder">
              <span className="admin-item__link">
                <span className="admin-item__title placeholder-text" />
                <span className="admin-item__cases placeholder-text" />
              </span>
            </li>
          ))}
        </ul>
      ) : rows.length > 0 ? (
        <ul className="admin-list__items">
          {rows.map((row) => (
            <AdminItem key={row.id} row={row} />
          ))}
        </ul>
      ) : null}
      <ListEnd
        noun={noun}
        answer={data}
        rows={rows.length}
        page={page}
        filtered={false}
        hrefFor={hrefFor}
        clearHref={hrefFor(1)}
        nothingYet={<p className="list-empty">{empty}</p>}
        pagerLabel={`${label} pages`}
      />
    </section>
  );
}
