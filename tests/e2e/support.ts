import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo-pass-1';

export const demo = {
  root: 'root@demo.test',
  admin: 'admin@demo.test',
  firm: 'firm@demo.test',
  lawyer: 'lawyer@demo.test',
  customer: 'client@demo.test',
} as const;

export const isPhone = (testInfo: TestInfo) => testInfo.project.name === 'phone';

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'sign in' }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
}

/** The newest link to `to` in the development mailbox that matches, as a path on this server. */
export async function mailboxLink(request: APIRequestContext, to: string, pattern: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get('/api/dev/mailbox');
      const emails = (await res.json()).emails as { to: string; links: string[] }[];
      link = emails.find((e) => e.to === to)?.links.find((l) => pattern.test(l));
      return link;
    })
    .toBeTruthy();
  return new URL(link!).pathname;
}

/** Opens the menu on a phone; on a desktop the navigation is always there. */
export async function openNavigation(page: Page, testInfo: TestInfo): Promise<void> {
  if (isPhone(testInfo)) await page.getByRole('button', { name: 'menu' }).click();
}
