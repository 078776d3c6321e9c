import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { PAGE_SIZE } from '../../shared/rules/limits';
import { Pagination } from './pagination';
import { listOutcome, pageCountOf } from './list-query';
import './list-end.css';

/** A list's records in words: 'loan' / 'loans'. */
export interface Noun {
  one: string;
  other: string;
}

export function countOf(count: number, noun: Noun): string {
  return `${count} ${count === 1 ? noun.one : noun.other}`;
}

interface ListEndProps {
  /** The list's records ('law firm' / 'law firms'). */
  noun: Noun;
  /** The answer of the page asked for; null while it loads or when it failed. */
  answer: { total: number; pageSize: number } | null;
  /** Rows the page shows (records still on the device included). */
  rows: number;
  page: number;
  /** Whether a filter or a search narrows the list. */
  filtered: boolean;
  /** The address of a page, with the filters kept. */
  hrefFor: (page: number) => string;
  /** The list's address without filters ('clear filters'). */
  clearHref: string;
  /** What shows when there are no records at all: the list's "More info" panel, or a line. */
  nothingYet: ReactNode;
  /** The pager's name for screen readers. */
  pagerLabel?: string;
}

/**
 * Below a list's rows: what an empty page means, and the pager. A filter that matches nothing
 * says so and offers to clear the filters; a page past the end says where the list ends and links
 * there; only a list with no records at all shows the general panel (docs/decisions.md 452). The
 * filters above and the pager stay. The words sit in a live region that is always there, so a
 * screen reader hears them when an answer empties the list.
 */
export function ListEnd({ noun, answer, rows, page, filtered, hrefFor, clearHref, nothingYet, pagerLabel }: ListEndProps) {
  const outcome = answer ? listOutcome(answer, rows, page, filtered) : null;
  const pageCount = answer ? pageCountOf(answer, PAGE_SIZE) : 0;
  return (
    <>
      <div className="list-end" role="status">
        {outcome === 'noMatch' ? (
          <div className="list-end__message">
            <p className="list-end__text">No {noun.other} match these filters.</p>
            <Link className="button button--secondary" to={clearHref}>
              clear filters
            </Link>
          </div>
        ) : outcome === 'pastEnd' ? (
          <div className="list-end__message">
            <p className="list-end__text">
              There is nothing on page {page}.{' '}
              {answer && answer.total > 0
                ? `${filtered ? 'These filters find' : 'The list has'} ${countOf(answer.total, noun)} on ${countOf(pageCount, { one: 'page', other: 'pages' })}.`
                : `There are no ${noun.other} yet.`}
            </p>
            <Link className="button button--secondary" to={hrefFor(pageCount)}>
              go to page {pageCount}
            </Link>
          </div>
        ) : null}
      </div>
      {answer ? <Pagination page={page} pageCount={pageCount} hrefFor={hrefFor} label={pagerLabel} /> : null}
      {outcome === 'nothingYet' ? nothingYet : null}
    </>
  );
}
