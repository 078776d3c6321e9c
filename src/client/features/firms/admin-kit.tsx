import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { components } from '../../../shared/api/schema';
import { errorMessages } from '../../../shared/rules/error-codes';
import { PAGE_SIZE } from '../../../shared/rules/limits';
import { isApiErrorBody, type ApiErrorBody } from '../../api/client';
import { Pagination } from '../../ui/pagination';
import { paths } from '../../app/paths';

/**
 * Pieces the four administration areas share (firms, lawyers, solicitors, clients): loading a
 * call's answer into a screen, the outcome of a write, the overview counts, the list with its
 * placeholders and paging.
 */

export type Schemas = components['schemas'];
export type Firm = Schemas['Firm'];
export type Lawyer = Schemas['Lawyer'];
export type Solicitor = Schemas['Solicitor'];
export type Client = Schemas['Client'];

/** What an openapi-fetch call resolves to. */
export interface ApiAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** A call's outcome: its data, or the status (0: no answer at all) and the error body. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; status: number; body: ApiErrorBody | null };

export async function send<T>(call: () => Promise<ApiAnswer<T>>): Promise<Outcome<T>> {
  try {
    const { data, error, response } = await call();
    if (response.ok) return { ok: true, data: data as T };
    return { ok: false, status: response.status, body: isApiErrorBody(error) ? error : null };
  } catch (failure) {
    console.error(failure);
    return { ok: false, status: 0, body: null };
  }
}

/** The words for a failure the form does not show on its fields. */
export function failureMessage(outcome: { status: number; body: ApiErrorBody | null }): string {
  if (outcome.status === 0) return errorMessages.offline;
  if (outcome.status === 429) return errorMessages.tooManyAttempts;
  if (outcome.status === 404) return errorMessages.notFound;
  return errorMessages.unhandled;
}

/**
 * The server's field → code map (400 validation) as codes of the form's own fields: a nested key
 * (`address.postcode`) lands on its last part, and `renames` moves a wire name to a form field
 * (`birthDay` → `birthDayDay`). Codes for fields the form does not have are left out.
 */
export function formCodes(fields: Record<string, string>, formFields: readonly string[], renames: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, code] of Object.entries(fields)) {
    const candidates = [renames[key], key, key.split('.').pop(), renames[key.split('.')[0] ?? '']];
    const target = candidates.find((name): name is string => Boolean(name) && formFields.includes(name!));
    if (target && !(target in out)) out[target] = code;
  }
  return out;
}

export type Loaded<T> =
  | { status: 'loading'; data?: undefined }
  | { status: 'ready'; data: T }
  | { status: 'notFound'; data?: undefined }
  | { status: 'failed'; message: string; data?: undefined };

/**
 * Loads one call's answer for a screen. While a new answer is on its way (another page of a
 * list), the previous one stays on screen: nothing jumps. `key` changes when the call does. 403 and 404 both read "not found" (a
 * record that is not the caller's is not theirs to know about).
 */
export function useLoad<T>(key: string, load: () => Promise<ApiAnswer<T>>): { state: Loaded<T>; reload: () => void; fetching: boolean } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [fetching, setFetching] = useState(true);
  const [round, setRound] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let live = true;
    setFetching(true);
    void send(() => latest.current()).then((outcome) => {
      if (!live) return;
      setFetching(false);
      if (outcome.ok) setState({ status: 'ready', data: outcome.data });
      else if (outcome.status === 404 || outcome.status === 403) setState({ status: 'notFound' });
      else setState({ status: 'failed', message: failureMessage(outcome) });
    });
    return () => {
      live = false;
    };
    // `key` names what the call depends on (its path and query).
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { state, reload, fetching };
}

/** The page number in the address (?page=N), 1 when missing or unusable. */
export function usePageParam(): number {
  const [params] = useSearchParams();
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1;
}

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

export interface AdminRow {
  id: number;
  href: string;
  title: string;
  detail?: string;
  activeCases: number;
}

/** One row of a list: a whole-row link (at least 44 px high) with its active cases on the right. */
function AdminItem({ row }: { row: AdminRow }) {
  return (
    <li className="admin-item">
      <Link className="admin-item__link" to={row.href}>
        <span className="admin-item__title">{row.title}</span>{' '}
        <span className="admin-item__detail">{row.detail ?? ''}</span>{' '}
        <span className={row.activeCases > 0 ? 'admin-item__cases admin-item__cases--active' : 'admin-item__cases'}>
          {activeCasesText(row.activeCases)}
        </span>
      </Link>
    </li>
  );
}

interface AdminListProps {
  /** The list's name for screen readers ('Law firms'). */
  label: string;
  state: Loaded<{ total: number; page: number; pageSize: number }>;
  rows: readonly AdminRow[];
  fetching: boolean;
  page: number;
  hrefFor: (page: number) => string;
  empty: string;
}

/**
 * A page of a list: placeholders of the same height while the first page loads, the rows, the
 * page links, and one line (always there) for a failure, so nothing moves when an answer comes.
 */
export function AdminList({ label, state, rows, fetching, page, hrefFor, empty }: AdminListProps) {
  const data = state.status === 'ready' ? state.data : null;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / (data.pageSize || PAGE_SIZE))) : 0;
  return (
    <section className="admin-list" aria-label={label} aria-busy={fetching || undefined}>
      <p className="list-note" role="status">
        {state.status === 'failed' ? state.message : ''}
      </p>
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
      ) : data ? (
        <p className="list-empty">{empty}</p>
      ) : null}
      {data ? <Pagination page={page} pageCount={pageCount} hrefFor={hrefFor} label={`${label} pages`} /> : null}
    </section>
  );
}

/** `?page=N` on a list's path; the first page has no query. */
export function pageHref(path: string, page: number): string {
  return page > 1 ? `${path}?page=${page}` : path;
}

/** A person's name as the lists show it. */
export function fullName(first: string | null | undefined, last: string | null | undefined): string {
  return [first, last].filter(Boolean).join(' ');
}

/**
 * Shows a failed save: a 400's field codes on their fields (with 'Please check the highlighted
 * fields' below the button), anything else as the form's message.
 */
export function showSaveFailure(
  outcome: { status: number; body: ApiErrorBody | null },
  target: { setServerCodes: (codes: Record<string, string>) => void; setMessage: (message: string | null) => void },
  formFields: readonly string[],
  renames: Record<string, string> = {},
): void {
  const fields = outcome.status === 400 ? outcome.body?.fields : undefined;
  const codes = fields ? formCodes(fields, formFields, renames) : {};
  if (Object.keys(codes).length > 0) {
    target.setServerCodes(codes);
    target.setMessage(errorMessages.validation);
    return;
  }
  target.setMessage(failureMessage(outcome));
}

/** The answer for an address whose id cannot be one (/firms/abc): not found, without a call. */
export function notFoundAnswer<T>(): Promise<ApiAnswer<T>> {
  return Promise.resolve({ response: new Response(null, { status: 404 }) });
}

/** The record id in an address, or null when it cannot be one. */
export function recordId(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

/** A lawyer in a list: their firm (on /lawyers) or their login (on their firm's page). */
export function lawyerRow(lawyer: Lawyer, withFirm = false): AdminRow {
  return {
    id: lawyer.id,
    href: paths.lawyer.url({ id: lawyer.id }),
    title: fullName(lawyer.firstName, lawyer.surname),
    detail: withFirm ? lawyer.firm.firmName : lawyer.login,
    activeCases: lawyer.casesAmount,
  };
}
