import { expect, test, type Page } from '@playwright/test';
import { ukDateFromToday } from '../../src/shared/rules/calendar-dates';
import { axeViolations, demo, signIn } from './support';

/**
 * A drawdown's whole life across the three roles, in order on one server: the lawyer drafts it in
 * court with the network cut (390 px), closes the page, reopens it offline and reconnects, and it
 * arrives once; staff approve it on a 1024 px tablet; the client approves it on a phone; staff mark
 * it paid; the overviews show the new figures. Every new screen is checked with axe on the way.
 */

test.describe.configure({ mode: 'serial' });
// axe is injected as a script: let it past the page's CSP, in this file only.
test.use({ bypassCSP: true });

const PHONE = { width: 390, height: 844 };
const TABLET = { width: 1024, height: 768 };

/** A recognisable amount (pounds and pence) of this run, so the count finds exactly our request. */
const amountPence = 10_000 + Math.floor(Math.random() * 89_999);
const amountText = (amountPence / 100).toFixed(2);

let loanId = 0;
let drawdownId = 0;
let paidBefore = 0;

function pounds(text: string | null): number {
  return Number((text ?? '').replace(/[£,\s]/g, ''));
}

/** A figure of an overview panel by its label. */
async function figure(page: Page, panel: string, label: string): Promise<number> {
  const region = page.getByRole('region', { name: panel });
  const value = region.locator('.overview-panel__stat', { hasText: label }).locator('dd');
  await expect(value).not.toHaveText('–');
  return pounds(await value.textContent());
}

/** Calls the API as the signed-in user of the page (its stored token). */
async function apiGet(page: Page, path: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(async (url) => {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
    return {
      status: response.status,
      body: response.headers.get('content-type')?.includes('json') ? await response.json() : null,
    };
  }, `/api${path}`);
}

async function expectNoViolations(page: Page, what: string) {
  expect(await axeViolations(page), what).toEqual([]);
}

test.beforeEach(async ({}, testInfo) => {
  // One journey on one database: it runs once, in the phone project, and sets each step's width.
  test.skip(testInfo.project.name !== 'phone', 'the journey runs once, at the widths it sets itself');
});

test('staff note the paid total before the journey', async ({ page }) => {
  await page.setViewportSize(TABLET);
  await signIn(page, demo.admin);
  await page.goto('/drawdowns');
  await expect(page.getByRole('heading', { level: 1, name: 'Drawdown History' })).toBeVisible();
  paidBefore = await figure(page, 'Drawdowns overview', 'Drawdowns paid');
  await expectNoViolations(page, '/drawdowns as staff');
  await page.goto('/loans');
  await expect(page.getByRole('region', { name: 'All loans overview' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'extract database' })).toBeVisible();
  await expectNoViolations(page, '/loans as staff');
});

test('a lawyer drafts a drawdown offline at 390 px, reopens it offline, and it arrives once on reconnect', async ({
  page,
  context,
}) => {
  await page.setViewportSize(PHONE);
  await signIn(page, demo.lawyer);
  // The service worker controls the page and holds the shell, so the app opens offline.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
      );
    }
  });

  await page.goto('/loans');
  await expect(page.getByRole('heading', { level: 1, name: 'Loans' })).toBeVisible();
  await expectNoViolations(page, '/loans as the lawyer');
  await page
    .getByRole('link', { name: /LFAMA\d{5}/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Open Loan' })).toBeVisible();
  loanId = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByRole('button', { name: 'request drawdown' })).toBeVisible();
  await expectNoViolations(page, '/loans/:id as the lawyer');

  // In court: no signal. Everything typed is kept on the device.
  await context.setOffline(true);
  await page.getByLabel('Drawdown amount').fill(amountText);
  await page.getByLabel('Invoice number').fill(`INV-E2E-${amountPence}`);
  await page.getByLabel('Stage of the case').fill('Disclosure');
  // Dates still to come whenever the test runs (docs/decisions.md: 462).
  await page.getByLabel('Next hearing date').fill(ukDateFromToday(30));
  await page.getByLabel('Final order date').fill(ukDateFromToday(180));
  await page.getByLabel('Expected repayment date').fill(ukDateFromToday(365));
  await page.getByLabel('Assets for repayment').fill('Family home');
  await page
    .getByRole('radiogroup', { name: /material changes since the last update/ })
    .getByRole('radio', { name: 'No' })
    .click();
  for (const group of await page.getByRole('radiogroup', { name: /\.$/ }).all())
    await group.getByRole('radio', { name: 'True' }).click();
  await expect(page.getByText('Draft kept on this device')).toBeVisible();
  // The draft is written within about 0.4 s of the last answer (debounced); then the tab is closed.
  await page.waitForTimeout(1_000);

  // The page is closed and opened again, still offline: the loan is the saved copy, the draft is back.
  await page.close();
  const again = await context.newPage();
  await again.goto(`/loans/${loanId}`);
  await expect(again.getByRole('heading', { level: 1, name: 'Open Loan' })).toBeVisible();
  await expect(again.getByText(/^Saved copy from \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeVisible();
  await expect(again.getByLabel('Invoice number')).toHaveValue(`INV-E2E-${amountPence}`);
  await expect(again.getByLabel('Drawdown amount')).toHaveValue(amountText);

  await again.getByRole('button', { name: 'request drawdown' }).click();
  await again.getByRole('button', { name: 'Yes' }).click();
  await expect(again.getByText(/is waiting for a connection/)).toBeVisible();
  await expect(again.getByText('1 change waiting for a connection')).toBeVisible();

  // Signal again: sent once, with its Idempotency-Key.
  await context.setOffline(false);
  await expect(again.getByText('All changes saved')).toBeVisible({ timeout: 30_000 });
  await expect(again.getByText('Your drawdown request has been sent.')).toBeVisible();
  const list = await apiGet(again, `/drawdowns?loanId=${loanId}&pageSize=100`);
  const ours = (list.body as { items: { id: number; amount: number; status: string }[] }).items.filter(
    (item) => Math.round(item.amount * 100) === amountPence,
  );
  expect(ours).toHaveLength(1);
  expect(ours[0]!.status).toBe('requested');
  drawdownId = ours[0]!.id;

  await again.goto(`/drawdowns/${drawdownId}`);
  await expect(
    again.getByText(
      "We'll review your request and confirm it in the next 48 hours. Your client can then review and approve your request.",
    ),
  ).toBeVisible();
  await expectNoViolations(again, '/drawdowns/:id as the lawyer');
});

test('staff approve the request on a 1024 px tablet', async ({ page }) => {
  test.skip(drawdownId === 0, 'needs the request of the step before');
  await page.setViewportSize(TABLET);
  await signIn(page, demo.admin);
  await page.goto(`/drawdowns/${drawdownId}`);
  await expect(page.getByText('requested', { exact: true })).toBeVisible();
  await expectNoViolations(page, '/drawdowns/:id as staff');
  await page.getByRole('button', { name: 'approve', exact: true }).click();
  await expect(page.getByText('Are you sure you want to approve this drawdown request?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('pending client approval')).toBeVisible();
});

test('the client approves it at 390 px with the five declarations', async ({ page }) => {
  test.skip(drawdownId === 0, 'needs the request of the step before');
  await page.setViewportSize(PHONE);
  await signIn(page, demo.customer);
  await page.goto(`/drawdowns/${drawdownId}`);
  const approve = page.getByRole('button', { name: 'approve request' });
  await expect(approve).toBeDisabled();
  const groups = page.getByRole('group', { name: 'Your declarations' }).getByRole('radiogroup');
  await expect(groups).toHaveCount(5);
  await groups.nth(0).getByRole('radio', { name: 'False' }).click();
  await expect(page.getByText(/If you do not agree with any of these declarations, please contact us by phone at/)).toBeVisible();
  await expectNoViolations(page, '/drawdowns/:id as the client');
  for (let index = 0; index < 5; index += 1) await groups.nth(index).getByRole('radio', { name: 'True' }).click();
  await expect(approve).toBeEnabled();
  await approve.click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('client accepted')).toBeVisible();
});

test('staff mark it paid and the overviews show the new figures', async ({ page }) => {
  test.skip(drawdownId === 0, 'needs the request of the step before');
  await page.setViewportSize(TABLET);
  await signIn(page, demo.admin);
  await page.goto(`/drawdowns/${drawdownId}`);
  await page.getByRole('button', { name: 'set status to paid' }).click();
  await expect(page.getByText('Are you sure you want to set this drawdown to paid?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('paid', { exact: true })).toBeVisible();

  await page.goto('/drawdowns');
  await expect.poll(() => figure(page, 'Drawdowns overview', 'Drawdowns paid')).toBeCloseTo(paidBefore + amountPence / 100, 2);
  await page.goto(`/loans/${loanId}`);
  await expect(page.getByRole('link', { name: new RegExp(`Drawdown ${drawdownId}`) })).toContainText('paid');
  await expectNoViolations(page, '/loans/:id as staff');
});
