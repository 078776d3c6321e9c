import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { lawyerDeclarationKeys } from '../../src/shared/rules/declarations';
import { demo, signIn } from './support';

/**
 * When something goes wrong with reading: every list and record page offline (a saved copy with
 * its time, or none yet), the portal not answering, the connection state when the browser says it
 * is online but nothing answers, records following other people's changes, and the figures read
 * again after the outbox's refusal, in every tab. At 390 px, on the demo data (docs/decisions.md
 * 400–404).
 */

const OFFLINE_COPY = 'You are offline. This is the copy saved on this device; it is brought up to date once you are back online.';
const OFFLINE_NO_COPY =
  'You are offline, and this page has not been opened on this device before. It opens once you are back online.';
const UNAVAILABLE_COPY =
  'The portal is not answering just now. This is the copy saved on this device; it is brought up to date as soon as the portal answers.';
const UNAVAILABLE_NO_COPY = 'The portal is not answering just now. This page opens as soon as it answers.';
const SAVED_COPY = /^Saved copy from \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/;
const UNHANDLED = 'Unhandled error';

test.beforeEach(async ({}, testInfo) => {
  // Each test changes the demo data (drawdowns requested, approved): once, at the phone's width.
  test.skip(testInfo.project.name !== 'phone', 'runs once, at 390 px');
});

/** The service worker controls the page and holds the shell, so the app opens offline. */
async function workerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
      );
    }
  });
}

/** Calls the API as the page's signed-in user (its stored token). */
async function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${localStorage.getItem('token')}` };
      if (body !== undefined) {
        headers['Content-Type'] = 'application/json';
        headers['Idempotency-Key'] = crypto.randomUUID();
      }
      const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
    },
    { method, url: `/api${path}`, body },
  );
}

async function firstId(page: Page, path: string, skip = 0): Promise<number> {
  const { body } = await api<{ items: { id: number }[] }>(
    page,
    'GET',
    `${path}${path.includes('?') ? '&' : '?'}page=1&pageSize=5`,
  );
  const item = body.items[skip];
  if (!item) throw new Error(`no record ${skip + 1} in ${path}`);
  return item.id;
}

function pounds(amount: number): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(amount);
}

const header = (page: Page) => page.getByTestId('sync-status');

interface Loan {
  id: number;
  applicationId: number;
  creditAvailable: number;
}

/** The lawyer's first open loan, as the server has it now. */
async function openLoan(page: Page): Promise<Loan> {
  const { body } = await api<{ items: Loan[] }>(page, 'GET', '/loans?page=1&pageSize=20&status=open');
  const loan = body.items[0];
  if (!loan) throw new Error('the demo lawyer has no open loan');
  return (await api<Loan>(page, 'GET', `/loans/${loan.id}`)).body;
}

/** A drawdown request as the form sends it (spec section 5). */
function drawdownRequest(applicationId: number, amount: number, invoice: string) {
  return {
    applicationId,
    amount,
    invoiceNumber: invoice,
    stageOfCase: 'Disclosure',
    materialChanges: false,
    nextHearingDate: '14/03/2027',
    finalOrderDate: '30/09/2027',
    reaplyAssets: 'Family home',
    expectedRepaymentDate: '31/12/2027',
    lawyerDeclarations: Object.fromEntries(lawyerDeclarationKeys.map((key) => [key, true])),
  };
}

async function signedInPage(context: BrowserContext, email: string): Promise<Page> {
  const page = await context.newPage();
  await signIn(page, email);
  await workerReady(page);
  return page;
}

test('every list and record page opened offline says so, shows its saved copy with its time, or says it has none yet; a 503 never reads "Unhandled error"', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await signedInPage(context, demo.admin);
  const ids = {
    application: await firstId(page, '/applications'),
    loan: await firstId(page, '/loans'),
    drawdown: await firstId(page, '/drawdowns'),
    otherDrawdown: await firstId(page, '/drawdowns', 1),
    firm: await firstId(page, '/firms'),
    otherFirm: await firstId(page, '/firms', 1).catch(() => 0),
    lawyer: await firstId(page, '/lawyers'),
    solicitor: await firstId(page, '/solicitors'),
    client: await firstId(page, '/clients'),
  };
  const pages = [
    '/applications',
    `/applications/${ids.application}/details`,
    '/loans',
    `/loans/${ids.loan}`,
    '/drawdowns',
    `/drawdowns/${ids.drawdown}`,
    '/firms',
    `/firms/${ids.firm}`,
    '/lawyers',
    `/lawyers/${ids.lawyer}`,
    '/solicitors',
    `/solicitors/${ids.solicitor}`,
    '/clients',
    `/clients/${ids.client}`,
  ];
  // Opened once online: each keeps its copy on the device.
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
  }

  await context.setOffline(true);
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByText(OFFLINE_COPY), path).toBeVisible();
    await expect(page.getByText(SAVED_COPY), path).toBeVisible();
    await expect(header(page), path).toContainText('Offline');
    await expect(page.getByText(UNHANDLED), path).toHaveCount(0);
  }
  // Never opened on this device: no copy, and it says so.
  const unseen = [`/drawdowns/${ids.otherDrawdown}`, ...(ids.otherFirm ? [`/firms/${ids.otherFirm}`] : [])];
  for (const path of unseen) {
    await page.goto(path);
    await expect(page.getByText(OFFLINE_NO_COPY), path).toBeVisible();
    await expect(page.getByText(UNHANDLED), path).toHaveCount(0);
  }
  // The portal answers 503 (a deploy, an overloaded server): never 'Unhandled error'. Routed before
  // the signal comes back, so the page on screen cannot save a copy of the unseen record meanwhile.
  await context.route('**/api/**', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"unavailable"}' }),
  );
  await context.setOffline(false);
  await page.goto('/drawdowns');
  await expect(page.getByText(UNAVAILABLE_COPY)).toBeVisible();
  await expect(page.getByText(SAVED_COPY)).toBeVisible();
  await page.goto(`/drawdowns/${ids.otherDrawdown}`);
  await expect(page.getByText(UNAVAILABLE_NO_COPY)).toBeVisible();
  await page.goto('/lawyers');
  await expect(page.getByText(UNAVAILABLE_COPY)).toBeVisible();
  await expect(page.getByText(UNHANDLED)).toHaveCount(0);
  await context.close();
});

test('offline, "Download PDF" says there is no connection, not "Unhandled error", and leaves no window open', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await signedInPage(context, demo.lawyer);
  const { body } = await api<{ items: { id: number; status: string }[] }>(page, 'GET', '/applications?page=1&pageSize=50');
  const sent = body.items.find((item) => item.status !== 'incomplete');
  if (!sent) throw new Error('the demo lawyer has no application past the wizard');
  await page.goto(`/applications/${sent.id}/details`);
  const download = page.getByRole('button', { name: 'Download PDF' });
  await expect(download).toBeVisible();
  await page.waitForLoadState('networkidle');

  await context.setOffline(true);
  await download.click();
  await expect(page.getByText('No connection. Please check your connection and try again.', { exact: true })).toBeVisible();
  await expect(page.getByText(UNHANDLED)).toHaveCount(0);
  expect(context.pages()).toHaveLength(1);
  await context.close();
});

test('offline, the drawdowns page (never opened) and the loan page list the request waiting on this device', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await signedInPage(context, demo.lawyer);
  const loan = await openLoan(page);
  // Whole pence divided once: 1 + 0.57 would be 1.5699999999999998, which the server refuses.
  const amount = (100 + Math.floor(Math.random() * 900)) / 100;
  await page.goto(`/loans/${loan.id}`);
  await expect(page.getByRole('button', { name: 'request drawdown' })).toBeVisible();
  await page.waitForLoadState('networkidle');

  await context.setOffline(true);
  await page.getByLabel('Drawdown amount').fill(amount.toFixed(2));
  await page.getByLabel('Invoice number').fill('INV-WAITING');
  await page.getByLabel('Stage of the case').fill('Disclosure');
  await page.getByLabel('Next hearing date').fill('14/03/2027');
  await page.getByLabel('Final order date').fill('30/09/2027');
  await page.getByLabel('Expected repayment date').fill('31/12/2027');
  await page.getByLabel('Assets for repayment').fill('Family home');
  await page
    .getByRole('radiogroup', { name: /material changes since the last update/ })
    .getByRole('radio', { name: 'No' })
    .click();
  for (const group of await page.getByRole('radiogroup', { name: /\.$/ }).all())
    await group.getByRole('radio', { name: 'True' }).click();
  await page.getByRole('button', { name: 'request drawdown' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(header(page)).toContainText('1 change waiting for a connection');

  const waiting = new RegExp(`drawdown request for ${pounds(amount).replace(/[.$]/g, '\\$&')}`);
  // The drawdowns list was never opened on this device: offline, plainly, with the waiting request.
  await page.goto('/drawdowns');
  await expect(page.getByRole('heading', { level: 1, name: 'Drawdowns' })).toBeVisible();
  await expect(page.getByText(OFFLINE_NO_COPY)).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: waiting })).toBeVisible();
  await expect(page.getByText(UNHANDLED)).toHaveCount(0);
  // The loan page again: its saved copy with its time, and the same waiting request.
  await page.goto(`/loans/${loan.id}`);
  await expect(page.getByText(OFFLINE_COPY)).toBeVisible();
  await expect(page.getByText(SAVED_COPY)).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: waiting })).toBeVisible();

  // Sent once back online; the request is not waiting any more.
  await context.setOffline(false);
  await expect(header(page)).toContainText('All changes saved', { timeout: 30_000 });
  await expect(page.getByText(OFFLINE_COPY)).toHaveCount(0);
  await context.close();
});

test('with no answer while the browser says online, the header says Offline after a reload and a navigation, and the page comes back by itself', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await signedInPage(context, demo.lawyer);
  await page.goto('/loans');
  await expect(page.getByRole('link', { name: /LFAMA\d{5}/ }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.goto('/drawdowns');
  await expect(page.getByRole('heading', { level: 1, name: 'Drawdowns' })).toBeVisible();
  await page.waitForLoadState('networkidle');

  // Wi-Fi without internet: navigator.onLine stays true, and nothing answers.
  await context.route('**/api/**', (route) => route.abort('internetdisconnected'));
  expect(await page.evaluate(() => navigator.onLine)).toBe(true);
  await page.reload();
  await expect(page.getByText(SAVED_COPY)).toBeVisible();
  await expect(header(page)).toContainText('Offline');
  await expect(page.getByText(OFFLINE_COPY)).toBeVisible();
  // A navigation inside the app: still offline, the loans list's own copy.
  await page.getByRole('button', { name: 'menu' }).click();
  await page.getByRole('dialog').getByRole('link', { name: 'Loans' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Loans' })).toBeVisible();
  await expect(page.getByText(SAVED_COPY)).toBeVisible();
  await expect(header(page)).toContainText('Offline');

  // The server answers again: the probe finds it, the header and the page follow without a reload.
  await context.unroute('**/api/**');
  await expect(header(page)).not.toContainText('Offline', { timeout: 45_000 });
  await expect(page.getByText(SAVED_COPY)).toHaveCount(0);
  await expect(page.getByText(OFFLINE_COPY)).toHaveCount(0);
  await context.close();
});

test('a record and a list follow what staff do on another device: on focus, and by themselves while visible', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  const lawyerContext = await browser.newContext(phone);
  const staffContext = await browser.newContext(phone);
  const lawyer = await signedInPage(lawyerContext, demo.lawyer);
  const staff = await signedInPage(staffContext, demo.admin);
  const loan = await openLoan(lawyer);
  const requested = async (invoice: string) => {
    const answer = await api<{ id: number }>(lawyer, 'POST', '/drawdowns', drawdownRequest(loan.applicationId, 1.23, invoice));
    expect(answer.status).toBe(201);
    return answer.body.id;
  };
  const first = await requested('INV-FOLLOW-1');
  const second = await requested('INV-FOLLOW-2');

  await lawyer.goto(`/drawdowns/${first}`);
  await expect(lawyer.getByText('requested', { exact: true })).toBeVisible();
  const list = await lawyerContext.newPage();
  await list.goto('/drawdowns');
  const secondItem = list.getByRole('link', { name: new RegExp(`Drawdown ${second}\\b`) });
  await expect(secondItem).toContainText('requested');

  // Staff approve the first: the lawyer's page follows when its window gets the focus.
  expect((await api(staff, 'POST', `/drawdowns/${first}/state`, { state: 'providerApproved' })).status).toBe(200);
  await lawyer.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(lawyer.getByText('pending client approval', { exact: true })).toBeVisible({ timeout: 10_000 });

  // Staff approve the second: the list open in another tab follows by itself.
  expect((await api(staff, 'POST', `/drawdowns/${second}/state`, { state: 'providerApproved' })).status).toBe(200);
  await expect(secondItem).toContainText('pending client approval', { timeout: 45_000 });
  await lawyerContext.close();
  await staffContext.close();
});

test('a drawdown requested offline and refused on reconnect (the credit used on another device): the figures and drawdowns on screen are the server’s, in every tab', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  const deviceContext = await browser.newContext(phone);
  const otherContext = await browser.newContext(phone);
  const device = await signedInPage(deviceContext, demo.lawyer);
  const other = await signedInPage(otherContext, demo.lawyer);
  const loan = await openLoan(other);

  await device.goto(`/loans/${loan.id}`);
  await expect(device.getByRole('button', { name: 'request drawdown' })).toBeVisible();
  const secondTab = await deviceContext.newPage();
  await secondTab.goto('/drawdowns');
  await expect(secondTab.getByRole('heading', { level: 1, name: 'Drawdowns' })).toBeVisible();
  await device.waitForLoadState('networkidle');
  await secondTab.waitForLoadState('networkidle');

  // In court: the lawyer asks for nearly all the credit available, offline.
  const available = (await api<Loan>(other, 'GET', `/loans/${loan.id}`)).body.creditAvailable;
  const amount = Math.round((available - 50) * 100) / 100;
  expect(amount).toBeGreaterThan(0);
  await deviceContext.setOffline(true);
  await device.getByLabel('Drawdown amount').fill(amount.toFixed(2));
  await device.getByLabel('Invoice number').fill('INV-REFUSED');
  await device.getByLabel('Stage of the case').fill('Disclosure');
  await device.getByLabel('Next hearing date').fill('14/03/2027');
  await device.getByLabel('Final order date').fill('30/09/2027');
  await device.getByLabel('Expected repayment date').fill('31/12/2027');
  await device.getByLabel('Assets for repayment').fill('Family home');
  await device
    .getByRole('radiogroup', { name: /material changes since the last update/ })
    .getByRole('radio', { name: 'No' })
    .click();
  for (const group of await device.getByRole('radiogroup', { name: /\.$/ }).all())
    await group.getByRole('radio', { name: 'True' }).click();
  await device.getByRole('button', { name: 'request drawdown' }).click();
  await device.getByRole('button', { name: 'Yes' }).click();
  await expect(header(device)).toContainText('1 change waiting for a connection');

  // Meanwhile another device uses £100 of the credit.
  const used = await api<{ id: number }>(
    other,
    'POST',
    '/drawdowns',
    drawdownRequest(loan.applicationId, 100, 'INV-OTHER-DEVICE'),
  );
  expect(used.status).toBe(201);

  // Back online: the request is refused ("can't exceed available credit").
  await deviceContext.setOffline(false);
  await expect(header(device)).toContainText('Needs your attention', { timeout: 30_000 });

  // Every figure and list on screen is the server's, in both tabs.
  const server = (await api<Loan>(other, 'GET', `/loans/${loan.id}`)).body;
  expect(server.creditAvailable).toBeLessThan(amount);
  const creditShown = device.locator('.loan-figures > div', { hasText: 'Credit available' }).locator('dd');
  await expect(creditShown).toHaveText(pounds(server.creditAvailable), { timeout: 15_000 });
  await expect(device.getByRole('link', { name: new RegExp(`Drawdown ${used.body.id}\\b`) })).toBeVisible();
  await expect(secondTab.getByRole('link', { name: new RegExp(`Drawdown ${used.body.id}\\b`) })).toBeVisible({ timeout: 15_000 });
  const list = (await api<{ items: { id: number }[] }>(other, 'GET', `/drawdowns?loanId=${loan.id}&pageSize=100`)).body.items;
  expect(list.some((item) => item.id === used.body.id)).toBe(true);
  await deviceContext.close();
  await otherContext.close();
});
