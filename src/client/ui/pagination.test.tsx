// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { pageHref, pageWindow, Pagination, usePageParam } from './pagination';
import { axeViolations } from './test-axe';

afterEach(() => cleanup());

function at(path: string, element: React.ReactElement) {
  const router = createMemoryRouter([{ path: '/list', element }], { initialEntries: [path] });
  return render(<RouterProvider router={router} />);
}

function PageNumber() {
  return <output>{usePageParam()}</output>;
}

describe('pagination', () => {
  it('keeps the current page as central as the ends allow', () => {
    expect(pageWindow(1, 12, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(6, 12, 5)).toEqual([4, 5, 6, 7, 8]);
    expect(pageWindow(12, 12, 5)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(3, 2, 5)).toEqual([1, 2]);
  });

  it('reads ?page= (1 when missing or unusable) and links the first page without a query', () => {
    expect(pageHref('/firms', 1)).toBe('/firms');
    expect(pageHref('/firms', 3)).toBe('/firms?page=3');
    for (const [path, page] of [
      ['/list?page=4', '4'],
      ['/list', '1'],
      ['/list?page=0', '1'],
      ['/list?page=2.5', '1'],
      ['/list?page=x', '1'],
    ] as const) {
      at(path, <PageNumber />);
      expect(screen.getByRole('status').textContent).toBe(page);
      cleanup();
    }
  });

  it('is a named navigation of real links; the ends that lead nowhere are marked, not links', async () => {
    at('/list', <Pagination page={1} pageCount={3} hrefFor={(page) => pageHref('/list', page)} label="Law firms pages" />);
    const nav = screen.getByRole('navigation', { name: 'Law firms pages' });
    expect(nav).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Page 3' }).getAttribute('href')).toBe('/list?page=3');
    expect(screen.getByRole('link', { name: 'Next' }).getAttribute('href')).toBe('/list?page=2');
    expect(screen.queryByRole('link', { name: 'Previous' })).toBeNull();
    expect(screen.getByText('Previous').getAttribute('aria-disabled')).toBe('true');
    expect(await axeViolations()).toEqual([]);
  });

  it('shows nothing for a single page', () => {
    at('/list', <Pagination page={1} pageCount={1} hrefFor={(page) => pageHref('/list', page)} />);
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
