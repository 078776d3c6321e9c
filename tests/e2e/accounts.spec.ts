import { expect, test } from '@playwright/test';
import { isPhone, mailboxLink, unusedInvitation } from './support';

// Each viewport has its own invited accounts, so the two runs never share a single-use link.
test('an invited client joins through the link in the development mailbox', async ({ page, request }, testInfo) => {
  const candidates = isPhone(testInfo)
    ? ['sarah.mitchell@demo.test', 'olivia.grant@demo.test']
    : ['emma.clarke@demo.test', 'james.patel@demo.test'];
  const { email, link } = await unusedInvitation(request, candidates);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Join platform' }).click();
  await expect(page).toHaveURL(/\/sign-up\/[0-9a-f-]{36}$/);

  const emailField = page.getByLabel('Email');
  await expect(emailField).toHaveValue(email);
  await expect(emailField).toBeDisabled();
  const signUp = page.getByRole('button', { name: 'sign up' });
  await page.getByLabel('Password', { exact: true }).fill('weak');
  await expect(signUp).toBeDisabled();
  await expect(
    page.getByText('Passwords must contain at least one number and a mixture of uppercase and lowercase letters.'),
  ).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('Joined-pass-7');
  await expect(signUp).toBeEnabled();
  await signUp.click();

  await expect(page).toHaveURL(/\/get-started$/);
  await expect(page.getByText("You're all signed up! Start exploring the platform")).toBeVisible();
  await page.getByRole('link', { name: 'Get started' }).click();
  // A client with exactly one application is taken to it (docs/decisions.md: 336); the list otherwise.
  await expect(page).toHaveURL(/\/applications(?:\/\d+\/[a-z-]+)?$/);

  // The link worked once.
  await page.goto(link.replace('/sign-up-customer/', '/sign-up/'));
  await expect(page.getByText('Invalid reset password token')).toBeVisible();
});

test('a password reset, end to end', async ({ page, request }, testInfo) => {
  const email = isPhone(testInfo) ? 'tom.hughes@demo.test' : 'priya.shah@demo.test';
  await page.goto('/sign-in');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/reset$/);
  await page.getByLabel('Email').fill('not an email');
  await page.getByLabel('Email').blur();
  await expect(page.getByText('Invalid email format - please check your entry')).toBeVisible();
  await expect(page.getByRole('button', { name: 'reset password' })).toBeDisabled();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'reset password' }).click();

  await expect(page).toHaveURL(/\/reset-succeeded$/);
  await expect(page.getByText('Your password has been reset')).toBeVisible();
  await expect(page.getByText('Please check your email and follow the instructions')).toBeVisible();

  const link = await mailboxLink(request, email, /\/reset\/validate\//);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Update password' })).toBeVisible();
  await expect(page).toHaveTitle(/Reset password/);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Password', { exact: true }).fill('Reset-pass-9');
  await page.getByRole('button', { name: 'update' }).click();
  await expect(page).toHaveURL(/\/applications$/);

  // The new password signs in; the link is spent.
  const signIn = await request.post('/api/auth', { data: { login: email, password: 'Reset-pass-9' } });
  expect(signIn.status()).toBe(200);
  await page.goto(link);
  await expect(page.getByText('Invalid reset password token')).toBeVisible();
});
