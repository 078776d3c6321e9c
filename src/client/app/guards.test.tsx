// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { SESSION_IDLE_TIMEOUT_MS } from '../../shared/rules/limits';
import { currentUrl, json, renderApp, userFor } from '../test/render-app';

describe('route guards', () => {
  it('sends a visitor to /sign-in and back to the page asked for after login', async () => {
    const { user, router } = renderApp('/firms?page=2', {
      handlers: { 'POST /auth': () => json(200, { token: 'tok', user: userFor('admin') }) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/sign-in?next=%2Ffirms%3Fpage%3D2');
    await user.type(screen.getByLabelText('Email'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret123');
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Law firms' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/firms?page=2');
  });

  it('redirects / to /applications', async () => {
    const { router } = renderApp('/', { role: 'customer' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Applications' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/applications');
  });

  it('sends a role without the permission to / (and so to /applications)', async () => {
    const { router } = renderApp('/solicitors/add', { role: 'lawyer' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Applications' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/applications');
  });

  it('lets a role with the permission in', async () => {
    renderApp('/solicitors/add', { role: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add new solicitor' })).toBeTruthy();
  });

  it('keeps the customer out of the lawyer’s new application page', async () => {
    const { router } = renderApp('/applications/new', { role: 'customer' });
    await waitFor(() => expect(currentUrl(router)).toBe('/applications'));
  });

  it('ends the session when the server refuses the token, and remembers the page', async () => {
    const { router } = renderApp('/loans', {
      role: 'lawyer',
      handlers: { 'GET /auth': () => json(401, { error: 'unauthorized' }) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/sign-in?next=%2Floans');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('sends the bearer token with calls and refreshes the cached user', async () => {
    const renamed = { ...userFor('lawyer'), name: 'Robin' };
    const { calls } = renderApp('/applications', {
      role: 'lawyer',
      handlers: { 'GET /auth': () => json(200, renamed) },
    });
    expect(await screen.findByText('Robin Morgan')).toBeTruthy();
    expect(calls.find((call) => call.path === '/auth')?.authorization).toBe('Bearer test-token');
    expect(JSON.parse(localStorage.getItem('sessionUser') ?? '{}')).toMatchObject({ name: 'Robin' });
  });

  it('keeps the cached session when the app starts offline', async () => {
    renderApp('/applications', {
      role: 'firm',
      handlers: {
        'GET /auth': () => {
          throw new TypeError('Failed to fetch');
        },
        'GET /config': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Applications' })).toBeTruthy();
    expect(localStorage.getItem('token')).toBe('test-token');
  });

  it('does not restore a session idle for longer than the limit', async () => {
    localStorage.setItem('lastActivity', String(Date.now() - SESSION_IDLE_TIMEOUT_MS - 1000));
    const { router } = renderApp('/drawdowns', { role: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/sign-in?next=%2Fdrawdowns');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('signs out after the idle limit, checked again when the page becomes visible', async () => {
    const { router } = renderApp('/clients', { role: 'lawyer' });
    await screen.findByRole('heading', { level: 1, name: 'All clients' });
    // The device slept: no timer ran, the stored activity is older than the limit.
    localStorage.setItem('lastActivity', String(Date.now() - SESSION_IDLE_TIMEOUT_MS - 1));
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/sign-in?next=%2Fclients');
  });

  it('shows a signed-in visitor of /sign-in the applications', async () => {
    const { router } = renderApp('/sign-in', { role: 'admin' });
    await waitFor(() => expect(currentUrl(router)).toBe('/applications'));
  });
});
