import { expect, test } from '@playwright/test';
import { axeViolations as violations, demo, openNavigation, signIn } from './support';

// axe is injected as a script: let it past the page's CSP, in this test only.
test.use({ bypassCSP: true });

const publicScreens = [
  '/sign-in',
  '/reset',
  '/reset-succeeded',
  '/sign-up-customer/00000000-0000-4000-8000-000000000000',
  '/sign-up-lawyer/00000000-0000-4000-8000-000000000000',
  '/sign-up-admin/00000000-0000-4000-8000-000000000000',
  '/sign-up/00000000-0000-4000-8000-000000000000',
  '/reset/validate/00000000-0000-4000-8000-000000000000',
];

for (const path of publicScreens) {
  test(`no WCAG 2.2 AA violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await violations(page)).toEqual([]);
  });
}

test('no WCAG 2.2 AA violation on the sign-in form with its errors shown', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(demo.admin);
  await page.getByLabel('Password', { exact: true }).fill('Wrong-pass-1');
  await page.getByRole('button', { name: 'sign in' }).click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

for (const role of ['admin', 'lawyer', 'customer'] as const) {
  test(`no WCAG 2.2 AA violation in the signed-in shell of ${role}`, async ({ page }, testInfo) => {
    await signIn(page, demo[role]);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await violations(page)).toEqual([]);
    for (const path of ['/get-started', '/no-such-page']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await violations(page), path).toEqual([]);
    }
    if (role !== 'customer') {
      await page.goto('/applications');
      await openNavigation(page, testInfo);
      expect(await violations(page), 'with the menu open').toEqual([]);
    }
  });
}

test('no WCAG 2.2 AA violation on the new application form, whose step bar scrolls sideways', async ({ page }) => {
  await signIn(page, demo.lawyer);
  await page.goto('/applications/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New application' })).toBeVisible();
  const steps = page.getByRole('navigation', { name: 'Application steps' });
  await expect(steps.locator('[aria-current="step"]')).toBeInViewport();
  expect(await violations(page)).toEqual([]);
});
