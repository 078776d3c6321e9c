// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Role } from '../../shared/rules/permissions';
import { json, renderApp } from '../test/render-app';

function mainNavLabels(): string[] {
  const nav = screen.queryByRole('navigation', { name: 'Main' });
  return nav
    ? within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent ?? '')
    : [];
}

const expected: Record<Role, string[]> = {
  root: ['Applications', 'Request Drawdown', 'Drawdown History', 'Law firms', 'Lawyers', 'Solicitors', 'Clients'],
  admin: ['Applications', 'Request Drawdown', 'Drawdown History', 'Law firms', 'Lawyers', 'Solicitors', 'Clients'],
  firm: ['Applications', 'Request Drawdown', 'Drawdown History', 'Lawyers', 'Clients'],
  lawyer: ['Applications', 'Loans', 'Drawdowns', 'Clients'],
  customer: [],
};

describe('navigation', () => {
  it.each(Object.entries(expected) as [Role, string[]][])('%s sees exactly its items', async (role, labels) => {
    renderApp('/applications', { role });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    expect(mainNavLabels()).toEqual(labels);
    // Tertiary group: the user's name and 'sign out'.
    expect(screen.getByText('Alex Morgan')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'sign out' })).toBeTruthy();
  });

  it('shows the loans and drawdowns pages under the lawyer’s names', async () => {
    const empty = () => json(200, { items: [], total: 0, page: 1, pageSize: 10 });
    const { user } = renderApp('/applications', { role: 'lawyer', handlers: { 'GET /loans': empty, 'GET /drawdowns': empty } });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    await user.click(screen.getByRole('link', { name: 'Loans' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Loans' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'More info on loans' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Loans' }).getAttribute('aria-current')).toBe('page');
    await user.click(screen.getByRole('link', { name: 'Drawdowns' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Drawdowns' })).toBeTruthy();
  });

  it('colours the header yellow for staff and blue for the others', async () => {
    const staff = renderApp('/applications', { role: 'admin' });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    expect(screen.getByRole('banner').className).toContain('site-header--staff');
    staff.unmount();
    localStorage.clear();
    renderApp('/applications', { role: 'lawyer' });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    expect(screen.getByRole('banner').className).toContain('site-header--member');
  });

  it('opens the mobile menu as a dialog and closes it on a route change', async () => {
    const { user } = renderApp('/applications', { role: 'admin' });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    await user.click(screen.getByRole('button', { name: 'menu' }));
    const dialog = await screen.findByRole('dialog', { name: 'Menu' });
    await user.click(within(dialog).getByRole('link', { name: 'Law firms' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Law firms' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull());
  });

  it('closes the mobile menu on Escape', async () => {
    const { user } = renderApp('/applications', { role: 'lawyer' });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    await user.click(screen.getByRole('button', { name: 'menu' }));
    await screen.findByRole('dialog', { name: 'Menu' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull());
    // The focus goes back to 'menu' (the dialog's code loads after the first screen: decision 367).
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'menu' })));
  });

  it('has the footer links from the brand settings and the legal line', async () => {
    renderApp('/applications', { role: 'lawyer' });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    const footer = screen.getByRole('contentinfo');
    await waitFor(() =>
      expect(
        within(footer)
          .getByRole('link', { name: /Terms and conditions/ })
          .getAttribute('href'),
      ).toBe('https://example.com/terms'),
    );
    expect(
      within(footer)
        .getByRole('link', { name: /Privacy statement/ })
        .getAttribute('target'),
    ).toBe('_blank');
    expect(within(footer).getByRole('link', { name: 'Email us' }).getAttribute('href')).toBe('mailto:help@example.com');
    expect(within(footer).getByRole('link', { name: 'Call us' }).getAttribute('href')).toBe('tel:+442079460000');
    expect(within(footer).getByRole('button', { name: 'back to top' })).toBeTruthy();
    expect(within(footer).getByText('Example Finance Ltd is the lender of the loans made through this portal.')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Applications | Test Funding'));
  });
});
