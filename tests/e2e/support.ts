import { createRequire } from 'node:module';
import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';

import { DEMO_PASSWORD, demoAccounts } from '../../src/server/seed/demo-accounts';
import { lawyerDeclarationKeys, type LawyerDeclarationKey } from '../../src/shared/rules/declarations';

export { DEMO_PASSWORD };
export const demo = demoAccounts;

export const isPhone = (testInfo: TestInfo) => testInfo.project.name === 'phone';

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'sign in' }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
}

/**
 * The first of these invited accounts whose invitation still works (a retry of a test finds the
 * next one), with its link as a path on this server.
 */
export async function unusedInvitation(
  request: APIRequestContext,
  candidates: readonly string[],
): Promise<{ email: string; link: string }> {
  for (const email of candidates) {
    const link = await mailboxLink(request, email, /\/sign-up-customer\//);
    const uuid = link.split('/').pop();
    const check = await request.post('/api/users/sign-up/validate', { data: { uuid } });
    if (check.ok()) return { email, link };
  }
  throw new Error(`every invitation of ${candidates.join(', ')} has been used`);
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

/**
 * Opens the menu on a phone; on a desktop the navigation is always there. The menu closes on a
 * route change, and '/' moves on to the user's start page, so it is opened again until it stays.
 */
export async function openNavigation(page: Page, testInfo: TestInfo): Promise<void> {
  if (!isPhone(testInfo)) return;
  const menu = page.getByRole('dialog');
  await expect(async () => {
    if (!(await menu.isVisible())) await page.getByRole('button', { name: 'menu' }).click();
    await expect(menu).toBeVisible({ timeout: 1_000 });
  }).toPass();
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * WCAG 2.2 AA violations on the page as it is now (axe in the browser). The test must let the
 * script past the page's CSP: `test.use({ bypassCSP: true })`.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations;
  });
  return found.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A drawdown request's seven lawyer declarations, every one answered True. */
export function everyLawyerDeclarationTrue(): Record<LawyerDeclarationKey, boolean> {
  return Object.fromEntries(lawyerDeclarationKeys.map((key) => [key, true])) as Record<LawyerDeclarationKey, boolean>;
}
