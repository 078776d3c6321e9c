import { expect, test } from '@playwright/test';
import { demo, isPhone, openNavigation, signIn } from './support';

/** What each role's navigation holds (spec: only routes the role may open; lawyer's labels). */
const navigation = {
  root: ['Applications', 'Request Drawdown', 'Drawdown History', 'Law firms', 'Lawyers', 'Solicitors', 'Clients'],
  admin: ['Applications', 'Request Drawdown', 'Drawdown History', 'Law firms', 'Lawyers', 'Solicitors', 'Clients'],
  firm: ['Applications', 'Request Drawdown', 'Drawdown History', 'Lawyers', 'Clients'],
  lawyer: ['Applications', 'Loans', 'Drawdowns', 'Clients'],
  customer: [],
} as const;

for (const role of Object.keys(navigation) as (keyof typeof navigation)[]) {
  test(`${role} signs in and sees the navigation of the role`, async ({ page }, testInfo) => {
    await signIn(page, demo[role]);
    if (role === 'customer') {
      // A client with one application starts on it (decision 336).
      await expect(page).toHaveURL(/\/applications\/\d+\/details$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Application details' })).toBeVisible();
    } else {
      await expect(page).toHaveURL(/\/applications$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
    }

    // Yellow page header for staff, blue for everyone else.
    const header = page.locator('header.site-header');
    await expect(header).toHaveClass(role === 'admin' || role === 'root' ? /site-header--staff/ : /site-header--member/);

    await openNavigation(page, testInfo);
    const nav = page.getByRole('navigation', { name: 'Main' }).filter({ visible: true });
    if (navigation[role].length === 0) {
      await expect(nav).toHaveCount(0);
    } else {
      await expect(nav.getByRole('link')).toHaveText([...navigation[role]]);
    }
    await expect(page.getByRole('button', { name: 'sign out' }).filter({ visible: true })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`${role}.png`), fullPage: true });

    if (navigation[role].length > 1) {
      await nav.getByRole('link', { name: navigation[role][1] }).click();
      await expect(page).toHaveURL(/\/loans$/);
      if (isPhone(testInfo)) await expect(page.getByRole('dialog')).toHaveCount(0);
    }
  });
}

test('a page the role may not open sends it to /', async ({ page }) => {
  await signIn(page, demo.lawyer);
  await page.goto('/firms');
  await expect(page).toHaveURL(/\/applications$/);
});

test('a signed-out visitor is sent to sign in, then back to the page asked for', async ({ page }) => {
  await page.goto('/drawdowns');
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Email').fill(demo.admin);
  await page.getByLabel('Password', { exact: true }).fill('Demo-pass-1');
  await page.getByRole('button', { name: 'sign in' }).click();
  await expect(page).toHaveURL(/\/drawdowns$/);
});

test('a wrong password shows the spec’s message', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(demo.customer);
  await page.getByLabel('Password', { exact: true }).fill('Not-the-pass-1');
  await page.getByRole('button', { name: 'sign in' }).click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
});

test('sign out ends the session on the server', async ({ page }, testInfo) => {
  await signIn(page, demo.firm);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await openNavigation(page, testInfo);
  // The page leaves for sign-in at once and tells the server beside it: the check waits for that answer.
  const told = page.waitForResponse((r) => r.url().endsWith('/api/auth') && r.request().method() === 'DELETE');
  await page.getByRole('button', { name: 'sign out' }).filter({ visible: true }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  expect((await told).status()).toBe(204);
  const res = await page.request.get('/api/auth', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(401);
});

test('an unknown path shows the not-found page inside the layout', async ({ page }) => {
  await signIn(page, demo.admin);
  await page.goto('/no-such-page');
  await expect(page.getByText('The page you were looking for doesn’t exist.')).toBeVisible();
  await expect(page.getByText('You may have mistyped the address or the page may have moved.')).toBeVisible();
});
