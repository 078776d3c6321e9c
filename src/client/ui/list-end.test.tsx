// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ListEnd } from './list-end';
import { listOutcome } from './list-query';
import { pageHref } from './pagination';
import { axeViolations } from './test-axe';

afterEach(() => cleanup());

const noun = { one: 'loan', other: 'loans' };

function at(element: React.ReactElement) {
  const router = createMemoryRouter([{ path: '/loans', element }], { initialEntries: ['/loans'] });
  return render(<RouterProvider router={router} />);
}

function end(answer: { total: number; pageSize: number } | null, rows: number, page: number, filtered: boolean) {
  return (
    <ListEnd
      noun={noun}
      answer={answer}
      rows={rows}
      page={page}
      filtered={filtered}
      hrefFor={(next) => pageHref('/loans', next)}
      clearHref="/loans"
      nothingYet={<p>More info on loans</p>}
    />
  );
}

describe('an empty page of a list (decision 452)', () => {
  it('tells rows, no records at all, no match and past the end apart', () => {
    expect(listOutcome({ total: 3 }, 3, 1, false)).toBe('rows');
    expect(listOutcome({ total: 0 }, 0, 1, false)).toBe('nothingYet');
    expect(listOutcome({ total: 0 }, 0, 1, true)).toBe('noMatch');
    expect(listOutcome({ total: 0 }, 0, 3, true)).toBe('noMatch');
    expect(listOutcome({ total: 12 }, 0, 9, false)).toBe('pastEnd');
    expect(listOutcome({ total: 12 }, 0, 9, true)).toBe('pastEnd');
    expect(listOutcome({ total: 0 }, 0, 4, false)).toBe('pastEnd');
    // Records still on the device count as rows.
    expect(listOutcome({ total: 0 }, 1, 1, false)).toBe('rows');
  });

  it('says nothing matches and offers to clear the filters, without the general panel', async () => {
    at(end({ total: 0, pageSize: 10 }, 0, 1, true));
    expect(screen.getByRole('status').textContent).toBe('No loans match these filters.clear filters');
    expect(screen.getByRole('link', { name: 'clear filters' }).getAttribute('href')).toBe('/loans');
    expect(screen.queryByText('More info on loans')).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it('says where the list ends past its last page, keeps the pager and links to the last page', () => {
    at(end({ total: 12, pageSize: 10 }, 0, 9, false));
    expect(screen.getByText('There is nothing on page 9. The list has 12 loans on 2 pages.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'go to page 2' }).getAttribute('href')).toBe('/loans?page=2');
    expect(screen.getByRole('link', { name: 'Previous' }).getAttribute('href')).toBe('/loans?page=2');
    expect(screen.queryByText('More info on loans')).toBeNull();
    cleanup();

    at(end({ total: 1, pageSize: 10 }, 0, 4, true));
    expect(screen.getByText('There is nothing on page 4. These filters find 1 loan on 1 page.')).toBeTruthy();
    // A list of one page keeps its pager when the address is past it.
    expect(screen.getByRole('link', { name: 'Previous' }).getAttribute('href')).toBe('/loans');
  });

  it('shows the general panel only when there are no records at all, and nothing with rows', () => {
    at(end({ total: 0, pageSize: 10 }, 0, 1, false));
    expect(screen.getByText('More info on loans')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('');
    cleanup();

    at(end({ total: 3, pageSize: 10 }, 3, 1, false));
    expect(screen.queryByText('More info on loans')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('says nothing while the page loads', () => {
    at(end(null, 0, 1, true));
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.queryByText('More info on loans')).toBeNull();
  });
});
