// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { currentUrl, json, renderApp, userFor } from '../test/render-app';

/** The page's h1, once it shows the given text. */
async function heading(name: string): Promise<HTMLElement> {
  return screen.findByRole('heading', { level: 1, name });
}

describe('focus after a route change', () => {
  it('leaves the focus alone on the first load of a public page', async () => {
    renderApp('/sign-in');
    const h1 = await heading('Sign in');
    expect(h1.getAttribute('tabindex')).toBe('-1');
    expect(document.activeElement).toBe(document.body);
  });

  it('leaves it alone on the redirects of the first load (/ → /applications)', async () => {
    const { router } = renderApp('/', { role: 'customer' });
    await heading('Applications');
    expect(currentUrl(router)).toBe('/applications');
    expect(document.activeElement).toBe(document.body);
  });

  it('moves it to the new heading between public pages, and back', async () => {
    const { user } = renderApp('/sign-in');
    await heading('Sign in');
    await user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    const reset = await heading('Reset password');
    await waitFor(() => expect(document.activeElement).toBe(reset));

    await user.click(screen.getByRole('link', { name: 'back to sign in' }));
    const signIn = await heading('Sign in');
    await waitFor(() => expect(document.activeElement).toBe(signIn));
  });

  it('moves it from a public page to the private page reached by signing in', async () => {
    const { user } = renderApp('/sign-in?next=%2Fclients', {
      handlers: { 'POST /auth': () => json(200, { token: 't', user: userFor('admin') }) },
    });
    await user.type(await screen.findByLabelText('Email'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    const clients = await heading('All clients');
    await waitFor(() => expect(document.activeElement).toBe(clients));
  });

  it('moves it between private pages (one mechanism for both)', async () => {
    const { user } = renderApp('/applications', { role: 'lawyer' });
    await heading('Applications');
    expect(document.activeElement).toBe(document.body);
    await user.click(screen.getByRole('link', { name: 'Loans' }));
    const loans = await heading('Loans');
    await waitFor(() => expect(document.activeElement).toBe(loans));
  });
});
