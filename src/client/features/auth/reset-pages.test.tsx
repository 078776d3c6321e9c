// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { BRAND, currentUrl, json, renderApp, userFor } from '../../test/render-app';

describe('password reset', () => {
  it('/reset keeps the button disabled while the email has errors, then shows /reset-succeeded', async () => {
    const { user, calls, router } = renderApp('/reset', { handlers: { 'POST /users/reset': () => json(204) } });
    const button = await screen.findByRole<HTMLButtonElement>('button', { name: 'reset password' });
    expect(button.disabled).toBe(true);
    await user.type(screen.getByLabelText('Email'), 'someone@');
    expect(button.disabled).toBe(true);
    await user.type(screen.getByLabelText('Email'), 'example.com');
    expect(button.disabled).toBe(false);
    await user.click(button);

    expect(await screen.findByRole('heading', { level: 1, name: 'Your password has been reset' })).toBeTruthy();
    expect(screen.getByText('Please check your email and follow the instructions')).toBeTruthy();
    expect(currentUrl(router)).toBe('/reset-succeeded');
    expect(calls.find((call) => call.path === '/users/reset')?.body).toEqual({ login: 'someone@example.com' });

    await user.click(screen.getByRole('link', { name: 'back to sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
  });

  it('/reset/validate/:uuid checks the token, updates the password and signs in', async () => {
    const { user, calls, router } = renderApp('/reset/validate/tok-1', {
      handlers: {
        'POST /users/reset/validate': () => json(200, { login: 'lawyer@example.com' }),
        'POST /users/reset/update': () => json(200, { token: 'after-reset', user: userFor('lawyer') }),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Update password' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(`Reset password | ${BRAND.productName}`));
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    await waitFor(() => expect(email.value).toBe('lawyer@example.com'));
    expect(email.disabled).toBe(true);
    expect(calls.find((call) => call.path === '/users/reset/validate')?.body).toEqual({ token: 'tok-1' });

    const update = screen.getByRole<HTMLButtonElement>('button', { name: 'update' });
    expect(update.disabled).toBe(true);
    await user.type(screen.getByLabelText('Password'), 'NewSecret9');
    expect(update.disabled).toBe(false);
    await user.click(update);

    expect(await screen.findByRole('heading', { level: 1, name: 'Applications' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/applications');
    expect(localStorage.getItem('token')).toBe('after-reset');
    expect(calls.find((call) => call.path === '/users/reset/update')?.body).toEqual({
      token: 'tok-1',
      login: 'lawyer@example.com',
      password: 'NewSecret9',
    });
  });

  it('/reset/validate/:uuid shows the invalid-token text for a refused token, with a way to ask again', async () => {
    renderApp('/reset/validate/old', {
      handlers: { 'POST /users/reset/validate': () => json(400, { error: 'invalidToken' }) },
    });
    expect(await screen.findByText('Invalid reset password token')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'update' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Update password' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'reset password' }).getAttribute('href')).toBe('/reset');
  });

  it('/reset/validate/:uuid says to wait when the link is checked too often (429), not that it is invalid', async () => {
    renderApp('/reset/validate/busy', {
      handlers: { 'POST /users/reset/validate': () => json(429, { error: 'tooManyAttempts', retryAfter: 600 }) },
    });
    expect(await screen.findByText('Too many attempts. Please wait a few minutes and try again.')).toBeTruthy();
    expect(screen.queryByText('Invalid reset password token')).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'update' }).disabled).toBe(true);
  });

  it('/reset/validate/:uuid says to wait when setting the password is refused with 429', async () => {
    const { user } = renderApp('/reset/validate/tok-4', {
      handlers: {
        'POST /users/reset/validate': () => json(200, { login: 'lawyer@example.com' }),
        'POST /users/reset/update': () => json(429, { error: 'tooManyAttempts', retryAfter: 600 }),
      },
    });
    await user.type(await screen.findByLabelText('Password'), 'Another-pass-1');
    await user.click(screen.getByRole('button', { name: 'update' }));
    expect(await screen.findByText('Too many attempts. Please wait a few minutes and try again.')).toBeTruthy();
    expect(screen.queryByText('Invalid reset password token')).toBeNull();
  });

  it('/reset/validate/:uuid checks the link inside the email field and sends only the token', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { calls } = renderApp('/reset/validate/tok-2?login=someone%40example.com', {
      handlers: { 'POST /users/reset/validate': () => new Promise((resolve) => (answer = resolve)) },
    });
    const email = await screen.findByLabelText<HTMLInputElement>('Email');
    expect(within(email.closest('.field') as HTMLElement).getByRole('status').textContent).toBe('Checking your link');
    await waitFor(() => expect(calls.some((call) => call.path === '/users/reset/validate')).toBe(true));
    expect(calls.find((call) => call.path === '/users/reset/validate')?.body).toEqual({ token: 'tok-2' });
    answer(json(200, { login: 'someone@example.com' }));
    await waitFor(() => expect(email.value).toBe('someone@example.com'));
  });

  it('/reset/validate/:uuid shows the invalid-token state when the update is refused', async () => {
    const { user } = renderApp('/reset/validate/tok-3', {
      handlers: {
        'POST /users/reset/validate': () => json(200, { login: 'lawyer@example.com' }),
        'POST /users/reset/update': () => json(400, { error: 'invalidToken' }),
      },
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('lawyer@example.com'));
    await user.type(screen.getByLabelText('Password'), 'NewSecret9');
    await user.click(screen.getByRole('button', { name: 'update' }));
    expect(await screen.findByText('Invalid reset password token')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'update' })).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('/reset says so after too many requests, below the button', async () => {
    const { user } = renderApp('/reset', {
      handlers: { 'POST /users/reset': () => json(429, { error: 'tooManyAttempts', retryAfter: 900 }) },
    });
    await user.type(await screen.findByLabelText('Email'), 'someone@example.com');
    await user.click(screen.getByRole('button', { name: 'reset password' }));
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toBe('Too many attempts. Please wait a few minutes and try again.'));
    expect(alert.nextElementSibling).toBeNull();
  });
});

describe('invitation landing pages', () => {
  it.each([
    ['/sign-up-admin/u-1', 'An administrator has created an account on your behalf'],
    ['/sign-up-lawyer/u-1', 'start creating applications on your clients’ behalf'],
    ['/sign-up-customer/u-1', 'Your lawyer has started an application on your behalf'],
  ])('%s explains the invitation and leads to /sign-up/:uuid', async (path, text) => {
    renderApp(path);
    expect(await screen.findByText((content) => content.includes(text))).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Join platform' }).getAttribute('href')).toBe('/sign-up/u-1');
  });
});
