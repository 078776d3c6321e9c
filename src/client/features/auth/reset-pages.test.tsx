// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
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

  it('/reset/validate/:uuid shows the invalid-token text for a refused token', async () => {
    renderApp('/reset/validate/old', {
      handlers: { 'POST /users/reset/validate': () => json(400, { error: 'invalidToken' }) },
    });
    expect(await screen.findByText('Invalid reset password token')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'update' })).toBeNull();
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
