// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { currentUrl, json, renderApp, userFor } from '../../test/render-app';

const HINT = 'Passwords must contain at least one number and a mixture of uppercase and lowercase letters.';

function signUpButton(): HTMLButtonElement {
  return screen.getByRole('button', { name: 'sign up' });
}

describe('sign-up page', () => {
  it('checks the invitation on entry and keeps sign up disabled until then', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { calls } = renderApp('/sign-up/abc-123', {
      handlers: { 'POST /users/sign-up/validate': () => new Promise((resolve) => (answer = resolve)) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Join platform' })).toBeTruthy();
    expect(signUpButton().disabled).toBe(true);
    await waitFor(() => expect(calls.some((call) => call.path === '/users/sign-up/validate')).toBe(true));
    expect(calls.find((call) => call.path === '/users/sign-up/validate')?.body).toEqual({ uuid: 'abc-123' });
    answer(json(200, { data: [{ login: 'new.client@example.com' }] }));
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    await waitFor(() => expect(email.value).toBe('new.client@example.com'));
    expect(email.disabled).toBe(true);
  });

  it('says to wait when the invitation is checked too often (429), not that it is invalid', async () => {
    renderApp('/sign-up/busy', {
      handlers: { 'POST /users/sign-up/validate': () => json(429, { error: 'tooManyAttempts', retryAfter: 600 }) },
    });
    expect(await screen.findByText('Too many attempts. Please wait a few minutes and try again.')).toBeTruthy();
    expect(screen.queryByText('Invalid reset password token')).toBeNull();
    expect(signUpButton().disabled).toBe(true);
  });

  it('shows the check inside the email field, so the form does not move when it answers', async () => {
    let answer: (response: Response) => void = () => undefined;
    renderApp('/sign-up/abc-123', {
      handlers: { 'POST /users/sign-up/validate': () => new Promise((resolve) => (answer = resolve)) },
    });
    const email = await screen.findByLabelText<HTMLInputElement>('Email');
    const form = email.closest('form');
    const field = email.closest('.field') as HTMLElement;
    // The form is there from the start, first thing under the heading; the check is inside the field.
    expect(form?.previousElementSibling?.tagName).toBe('H1');
    expect(within(field).getByRole('status').textContent).toBe('Checking your invitation');
    expect(email.placeholder).toBe('Checking your invitation…');
    expect(email.getAttribute('aria-busy')).toBe('true');
    // No spinner of its own above or beside the form.
    const card = form?.parentElement as HTMLElement;
    expect(within(card).getAllByRole('status')).toEqual([within(field).getByRole('status')]);

    answer(json(200, { data: [{ login: 'new.client@example.com' }] }));
    await waitFor(() => expect(email.value).toBe('new.client@example.com'));
    expect(within(field).queryByRole('status')).toBeNull();
    expect(email.getAttribute('aria-busy')).toBeNull();
    // The same form and field elements: nothing was swapped or inserted above them.
    expect(screen.getByLabelText('Email')).toBe(email);
    expect(email.closest('form')).toBe(form);
    expect(form?.previousElementSibling?.tagName).toBe('H1');
  });

  it('keeps the form-level message last in the form, after the button', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/sign-up/abc-123', {
      handlers: {
        'POST /users/sign-up/validate': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toBe('No connection. Please check your connection and try again.'));
    expect(alert.parentElement?.tagName).toBe('FORM');
    expect(alert.nextElementSibling).toBeNull();
    expect(alert.previousElementSibling?.className).toBe('form__actions');
  });

  it('shows the password hint and enables sign up only for a valid password', async () => {
    const { user } = renderApp('/sign-up/abc-123', {
      handlers: { 'POST /users/sign-up/validate': () => json(200, { data: [{ login: 'c@example.com' }] }) },
    });
    const password = await screen.findByLabelText('Password');
    const hint = screen.getByText(HINT);
    expect(password.getAttribute('aria-describedby')).toContain(hint.id);
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('c@example.com'));

    await user.type(password, 'lowercase1');
    expect(signUpButton().disabled).toBe(true);
    await user.tab();
    // A failing password is marked 'empty': invalid, with the hint and no other message.
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('Required field')).toBeNull();

    await user.clear(password);
    await user.type(password, 'Mixed Case1');
    expect(signUpButton().disabled).toBe(true);
    await user.clear(password);
    await user.type(password, 'MixedCase1');
    expect(signUpButton().disabled).toBe(false);
  });

  it('shows the invalid-token state', async () => {
    renderApp('/sign-up/expired', {
      handlers: { 'POST /users/sign-up/validate': () => json(400, { error: 'invalidToken' }) },
    });
    expect(await screen.findByText('Invalid reset password token')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'sign up' })).toBeNull();
  });

  it('stores the session and goes to /get-started', async () => {
    const { user, calls, router } = renderApp('/sign-up/abc-123', {
      handlers: {
        'POST /users/sign-up/validate': () => json(200, { data: [{ login: 'c@example.com' }] }),
        'POST /users/sign-up/complete': () => json(200, { userToken: 'fresh', user: userFor('customer') }),
      },
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('c@example.com'));
    await user.type(screen.getByLabelText('Password'), 'MixedCase1');
    await user.click(signUpButton());
    expect(await screen.findByRole('heading', { level: 1, name: 'Account created' })).toBeTruthy();
    expect(screen.getByText("You're all signed up! Start exploring the platform")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get started' }).getAttribute('href')).toBe('/');
    expect(currentUrl(router)).toBe('/get-started');
    expect(localStorage.getItem('token')).toBe('fresh');
    expect(calls.find((call) => call.path === '/users/sign-up/complete')?.body).toEqual({
      login: 'c@example.com',
      password: 'MixedCase1',
      uuid: 'abc-123',
    });
  });

  it('shows the server’s field codes as the spec’s messages', async () => {
    const { user } = renderApp('/sign-up/abc-123', {
      handlers: {
        'POST /users/sign-up/validate': () => json(200, { data: [{ login: 'c@example.com' }] }),
        'POST /users/sign-up/complete': () => json(400, { error: 'validation', fields: { login: 'login' } }),
      },
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('c@example.com'));
    await user.type(screen.getByLabelText('Password'), 'MixedCase1');
    await user.click(signUpButton());
    expect(await screen.findByText('This email is already in use')).toBeTruthy();
  });
});
