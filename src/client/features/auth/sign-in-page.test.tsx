// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { currentUrl, json, renderApp, userFor } from '../../test/render-app';

async function fill(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  if (email) await user.type(await screen.findByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
}

describe('sign-in page', () => {
  it('shows the form with the spec texts and no message before anything is touched', async () => {
    renderApp('/sign-in');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/reset');
    expect(screen.getByRole('button', { name: 'sign in' })).toBeTruthy();
    expect(screen.queryByText('Required field')).toBeNull();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBeNull();
  });

  it('shows a field error once the field was left, linked to it', async () => {
    const { user } = renderApp('/sign-in');
    await fill(user, 'not-an-email', '');
    expect(screen.queryByText('Invalid email format - please check your entry')).toBeNull();
    await user.tab();
    const message = await screen.findByText('Invalid email format - please check your entry');
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toContain(message.id);
  });

  it('shows every error on submit and sends nothing while the form is invalid', async () => {
    const { user, calls } = renderApp('/sign-in');
    await user.click(await screen.findByRole('button', { name: 'sign in' }));
    expect(screen.getAllByText('Required field')).toHaveLength(2);
    expect(calls.filter((call) => call.path === '/auth' && call.method === 'POST')).toHaveLength(0);
  });

  it('on 401 marks the email empty (no message), the password invalid, and says so', async () => {
    const { user } = renderApp('/sign-in', {
      handlers: { 'POST /auth': () => json(401, { error: 'invalidCredentials' }) },
    });
    await fill(user, 'someone@example.com', 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    const message = await screen.findByText('Invalid email or password');
    const email = screen.getByLabelText('Email');
    const password = screen.getByLabelText('Password');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBeNull();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-describedby')).toContain(message.id);
    expect(screen.queryByText('Required field')).toBeNull();
  });

  it('on 429 shows the too-many-attempts text', async () => {
    const { user } = renderApp('/sign-in', {
      handlers: { 'POST /auth': () => json(429, { error: 'tooManyAttempts', retryAfter: 900 }) },
    });
    await fill(user, 'someone@example.com', 'Secret123');
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts. Please wait a few minutes and try again.');
  });

  it('says so when there is no connection', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderApp('/sign-in', {
      handlers: {
        'POST /auth': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    await fill(user, 'someone@example.com', 'Secret123');
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    expect(await screen.findByText('No connection. Please check your connection and try again.')).toBeTruthy();
  });

  it('signs in once on a double click, stores the session and returns to the page asked for', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { user, calls, router } = renderApp('/sign-in?next=%2Fclients', {
      handlers: {
        'POST /auth': async () => {
          await answered;
          return json(200, { token: 'new-token', user: userFor('admin') });
        },
      },
    });
    await fill(user, '  Someone@Example.com ', 'Secret123');
    const button = screen.getByRole('button', { name: 'sign in' });
    await user.dblClick(button);
    expect(button.getAttribute('aria-busy')).toBe('true');
    release();
    expect(await screen.findByRole('heading', { level: 1, name: 'All clients' })).toBeTruthy();
    const signIns = calls.filter((call) => call.method === 'POST' && call.path === '/auth');
    expect(signIns).toHaveLength(1);
    expect(signIns[0]?.body).toEqual({ login: 'someone@example.com', password: 'Secret123' });
    expect(localStorage.getItem('token')).toBe('new-token');
    expect(currentUrl(router)).toBe('/clients');
  });

  it('goes to / (the applications) when no page was asked for', async () => {
    const { user, router } = renderApp('/sign-in', {
      handlers: { 'POST /auth': () => json(200, { token: 't', user: userFor('lawyer') }) },
    });
    await fill(user, 'lawyer@example.com', 'Secret123');
    await user.click(screen.getByRole('button', { name: 'sign in' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/applications'));
  });
});
