import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { ukDateFromToday } from '../../src/shared/rules/calendar-dates';
import { errorMessages } from '../../src/shared/rules/error-codes';
import { lawyerDeclarationKeys } from '../../src/shared/rules/declarations';
import { drawdownStatusLabels } from '../../src/shared/rules/statuses';
import { demo, signIn } from './support';

/**
 * A decision sent through the outbox, as every screen that makes one now says it (docs/decisions.md:
 * 660, 661): made offline it waits on the device, in every tab; refused on reconnect because another
 * device acted first, it says why in the server's words, in every tab, until dismissed in one.
 */

test.beforeEach(async ({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'checked once, at 390 px');
});

/** The API as the page's signed-in user (its stored token), through Playwright's request context. */
async function call(page: Page, method: 'GET' | 'POST', path: string, data?: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.fetch(`/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
    ...(data === undefined ? {} : { data }),
  });
  return { status: response.status(), body: (await response.json().catch(() => null)) as Record<string, unknown> | null };
}

test('a drawdown approved offline waits in both tabs; rejected meanwhile on another device, both say why until dismissed', async ({
  page,
  context,
  browser,
}) => {
  // The lawyer requests a drawdown on the demo's open loan.
  await signIn(page, demo.lawyer);
  const loans = await call(page, 'GET', '/loans');
  const loan = (loans.body?.items as { id: number; applicationId: number; state: string }[]).find((l) => l.state === 'open');
  expect(loan, 'the demo lawyer has an open loan').toBeTruthy();
  const created = await call(page, 'POST', '/drawdowns', {
    applicationId: loan!.applicationId,
    amount: 1 + Math.floor(Math.random() * 50),
    invoiceNumber: `INV-QUEUED-${Date.now()}`,
    stageOfCase: 'First appointment',
    materialChanges: false,
    reaplyAssets: 'Family home',
    nextHearingDate: ukDateFromToday(30),
    finalOrderDate: ukDateFromToday(180),
    expectedRepaymentDate: ukDateFromToday(240),
    lawyerDeclarations: Object.fromEntries(lawyerDeclarationKeys.map((key) => [key, true])),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const path = `/drawdowns/${created.body!.id as number}`;

  // Staff open it in two tabs, then lose the connection and approve in the first.
  await page.evaluate(() => localStorage.clear());
  await signIn(page, demo.admin);
  await page.goto(path);
  const second = await context.newPage();
  await second.goto(path);
  const approve = page.getByRole('button', { name: 'approve', exact: true });
  await expect(approve).toBeVisible();
  await expect(second.getByRole('button', { name: 'approve', exact: true })).toBeVisible();
  await context.setOffline(true);
  await approve.click();
  await page
    .getByRole('alertdialog', { name: 'Are you sure you want to approve this drawdown request?' })
    .getByRole('button', { name: 'Yes' })
    .click();
  const waiting = 'Your decision ‘approve’ is kept on this device and will be sent once you are back online.';
  for (const tab of [page, second]) {
    await expect(tab.getByRole('status').filter({ hasText: waiting })).toHaveText(waiting);
    await expect(tab.getByRole('button', { name: 'approve', exact: true })).toHaveCount(0);
  }

  // Another device rejects it meanwhile; the server's answer to an approval now is the refusal's words.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, demo.admin);
  expect((await call(otherPage, 'POST', `${path}/state`, { state: 'providerRejected' })).status).toBe(200);
  const answer = await call(otherPage, 'POST', `${path}/state`, { state: 'providerApproved' });
  expect(answer.status).toBe(409);
  const words = errorMessages[answer.body!.error as keyof typeof errorMessages];
  expect(words).toBeTruthy();
  await other.close();

  // Back online: the waiting approval is sent, refused, and said in both tabs with the server's words.
  await context.setOffline(false);
  const refused = `Your decision ‘approve’ was not made: ${words}`;
  for (const tab of [page, second]) {
    const alert = tab.getByRole('alert').filter({ hasText: 'was not made' });
    await expect(alert.getByText(refused, { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(tab.getByText(waiting)).toHaveCount(0);
  }
  // The page reads the record again: the other device's rejection is what it shows.
  await second.getByRole('button', { name: 'dismiss' }).click();
  for (const tab of [page, second]) {
    await expect(tab.getByRole('alert').filter({ hasText: 'was not made' })).toHaveCount(0);
    await expect(tab.getByText(drawdownStatusLabels.providerRejected).first()).toBeVisible();
  }
});
