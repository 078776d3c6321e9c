import { Link, useSearchParams } from 'react-router-dom';
import { PAGE_LINKS, PAGE_MAX } from '../../shared/rules/limits';
import './pagination.css';

/** The page numbers to link: at most `links`, the current page as central as the ends allow. */
export function pageWindow(page: number, pageCount: number, links: number = PAGE_LINKS): number[] {
  if (pageCount <= 0) return [];
  const count = Math.min(links, pageCount);
  const current = Math.min(Math.max(page, 1), pageCount);
  const first = Math.min(Math.max(current - Math.floor(count / 2), 1), pageCount - count + 1);
  return Array.from({ length: count }, (_, index) => first + index);
}

interface PaginationProps {
  page: number;
  pageCount: number;
  /** The address of a page (a query string on the same screen keeps filters: bookmarkable). */
  hrefFor: (page: number) => string;
  /** Page links shown at once (spec: 5 in general lists). */
  links?: number;
  label?: string;
}

/**
 * Page links, as real links: each page has its own address, so back and forward move between
 * pages and a page can be bookmarked. Nothing is rendered for a single page, unless the address
 * asks for a page past the end: then the pager stays, and 'Previous' leads to the last page
 * there is (docs/decisions.md 452).
 */
export function Pagination({ page, pageCount, hrefFor, links = PAGE_LINKS, label = 'Pages' }: PaginationProps) {
  const pastEnd = page > pageCount;
  if (pageCount < 1 || (pageCount === 1 && !pastEnd)) return null;
  const pages = pageWindow(page, pageCount, links);
  return (
    <nav className="pagination" aria-label={label}>
      <ul className="pagination__list">
        <li>
          {page > 1 ? (
            <Link className="pagination__link" to={hrefFor(pastEnd ? pageCount : page - 1)} rel="prev">
              Previous
            </Link>
          ) : (
            <span className="pagination__link pagination__link--disabled" aria-disabled="true">
              Previous
            </span>
          )}
        </li>
        {pages.map((number) => (
          <li key={number}>
            <Link
              className="pagination__link"
              to={hrefFor(number)}
              aria-current={number === page ? 'page' : undefined}
              aria-label={`Page ${number}`}
            >
              {number}
            </Link>
          </li>
        ))}
        <li>
          {page < pageCount ? (
            <Link className="pagination__link" to={hrefFor(page + 1)} rel="next">
              Next
            </Link>
          ) : (
            <span className="pagination__link pagination__link--disabled" aria-disabled="true">
              Next
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}

/** The page number in the address (?page=N), 1 when missing or unusable. */
export function usePageParam(): number {
  const [params] = useSearchParams();
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page >= 1 && page <= PAGE_MAX ? page : 1;
}

/** `?page=N` on a list's path; the first page has no query. */
export function pageHref(path: string, page: number): string {
  return page > 1 ? `${path}?page=${page}` : path;
}
