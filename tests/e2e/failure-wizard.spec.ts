import { expect, test, type APIRequestContext, type Browser, type Locator, type Page, type TestInfo } from '@playwright/test';
import { fieldLabel } from '../../src/shared/journey/labels';
import type { JourneyStep } from '../../src/shared/journey/steps';
import { formatDate, formatDateTime } from '../../src/shared/rules/formats';
import { DEMO_PASSWORD, demo, mailboxLink, signIn } from './support';
import { validPersonal, validSteps } from '../fixtures/journeys';

/**
 * When something goes wrong in the application wizard, at 390 px: the conflict chooser, a refused
 * save or submit, the sticky action bar, errors before Save, and the moved-in date. Every test makes
 * its own application, so they run side by side on the shared server.
 */

test.beforeEach(async ({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the wizard’s failures are tested at the phone viewport');
});

type Json = Record<string, unknown>;
type Audience = 'lawyer' | 'customer';

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const freshEmail = () => `e2e-failure-${unique()}@example.test`;
const surname = (prefix: string) => `${prefix}${unique().replace(/\W/g, '')}`;

const field = (page: Page | Locator, step: JourneyStep, name: string, audience: Audience) =>
  page.getByLabel(fieldLabel(step, name, audience), { exact: true });

async function expectStep(page: Page, title: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/* ── The server, through its API ───────────────────────────────────────────────────────────── */

async function apiToken(request: APIRequestContext, login: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await request.post('/api/auth', { data: { login, password } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as Json;
  return (body.userToken ?? body.token) as string;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function createApplication(request: APIRequestContext, token: string, personal: Json): Promise<number> {
  const res = await request.post('/api/applications/create', { headers: bearer(token), data: { journeyData: { personal } } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

async function saveStep(
  request: APIRequestContext,
  token: string,
  id: number,
  step: JourneyStep,
  baseVersion: number,
  data: Json,
) {
  const res = await request.post(`/api/applications/update/${step}`, {
    headers: bearer(token),
    data: { applicationId: id, baseVersion, journeyData: { [step]: data } },
  });
  expect(res.status(), await res.text()).toBe(200);
}

async function submit(request: APIRequestContext, token: string, id: number) {
  return request.post('/api/applications/state/update', {
    headers: bearer(token),
    data: { applicationId: id, state: 'submitted' },
  });
}

async function joinAsClient(request: APIRequestContext, email: string, password: string): Promise<string> {
  const uuid = (await mailboxLink(request, email, /\/sign-up-customer\//)).split('/').pop();
  const res = await request.post('/api/users/sign-up/complete', { data: { login: email, password, uuid } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { userToken: string }).userToken;
}

/**
 * An application the lawyer has completed (consent and authority given) and the client has joined
 * and confirmed: either party may submit it.
 */
async function completeApplication(request: APIRequestContext) {
  const email = freshEmail();
  const password = 'Client-pass-7';
  const lastName = surname('Refused');
  const lawyerToken = await apiToken(request, demo.lawyer);
  const id = await createApplication(request, lawyerToken, validPersonal(email, { firstName: 'Nina', lastName }));
  for (const step of ['case', 'financial', 'asset', 'independent'] as const)
    await saveStep(request, lawyerToken, id, step, 0, { ...validSteps[step] });
  const clientToken = await joinAsClient(request, email, password);
  await saveStep(request, clientToken, id, 'client', 0, { ...validSteps.client });
  return { id, email, password, clientName: `Nina ${lastName}`, lawyerToken, clientToken };
}

/** 'on 25/11/2026 at 21:30', as the screen says the server's time (UK). */
const onAt = (iso: string) => `on ${formatDate(iso)} at ${formatDateTime(iso).split(' ')[1]}`;

/* ── Looking at the screen ─────────────────────────────────────────────────────────────────── */

async function newPhoneContext(browser: Browser, testInfo: TestInfo) {
  return browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL });
}

/** The element's box lies wholly inside the viewport. */
async function expectInViewport(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  expect(box, 'the element has a box').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(size.width + 0.5);
  expect(box!.y + box!.height).toBeLessThanOrEqual(size.height + 0.5);
}

function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Screenshots at 390, 1024 and 1280 px of what is on screen now, then back to the phone. */
async function shootAtEveryWidth(page: Page, name: string, check: () => Promise<void>): Promise<void> {
  for (const [width, height] of [
    [390, 844],
    [1024, 768],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await check();
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

const syncStatus = (page: Page) => page.getByTestId('sync-status');

/* ── (3) The conflict chooser ──────────────────────────────────────────────────────────────── */

test('the conflict chooser opens as a styled dialog in view, and works by touch and by keyboard', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const { id, email, password, lawyerToken } = await completeApplication(request);

  // The client opens the financial step; the lawyer (on another device) saves it meanwhile.
  const clientContext = await newPhoneContext(browser, testInfo);
  const client = await clientContext.newPage();
  await signIn(client, email, password);
  await client.goto(`/applications/${id}/financial`);
  await expectStep(client, 'Financial Information');
  await signIn(page, demo.lawyer);
  await page.goto(`/applications/${id}/financial`);
  await expectStep(page, 'Financial details');
  await field(page, 'financial', 'monthlyIncome', 'lawyer').fill('3000');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expectStep(page, 'Supporting documents and assets');

  await field(client, 'financial', 'monthlyIncome', 'customer').fill('2800');
  await field(client, 'financial', 'intendedHousingArrangements', 'customer').fill('Move to a flat near the school');
  await client.getByRole('button', { name: 'Save & Continue' }).click();
  const dialog = client.getByRole('dialog', { name: 'This step was changed by someone else' });
  await expect(dialog).toBeVisible();

  // Styled and in view: a sheet over a dimmed page, never after the footer or off the screen.
  await expect(dialog).toHaveCSS('position', 'fixed');
  await expect(dialog).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
  await expect(client.locator('.modal-overlay')).toHaveCSS('position', 'fixed');
  await expectInViewport(client, dialog);
  const save = dialog.getByRole('button', { name: 'Save chosen values' });
  await expectInViewport(client, save);
  expect((await save.boundingBox())!.height).toBeGreaterThanOrEqual(44);

  await shootAtEveryWidth(client, 'conflict-dialog', async () => {
    await expectInViewport(client, dialog);
    await expectInViewport(client, save);
  });

  // Keyboard: the focus is inside the dialog and stays there.
  await expect(dialog.locator(':focus')).toHaveCount(1);
  for (let i = 0; i < 8; i += 1) {
    await client.keyboard.press('Tab');
    await expect(dialog.locator(':focus')).toHaveCount(1);
  }

  // Touch: each choice is a row at least 44 px high; the saved income is tapped.
  const income = dialog.getByRole('group', { name: fieldLabel('financial', 'monthlyIncome', 'customer') });
  const savedIncome = income.getByRole('radio', { name: /^Saved version/ });
  const savedRow = income.locator('label', { has: client.getByRole('radio', { name: /^Saved version/ }) });
  expect((await savedRow.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await savedRow.tap();
  await expect(savedIncome).toBeChecked();

  // Keyboard: the housing answer changed with the arrows and back, then saved with Enter.
  const housing = dialog.getByRole('group', { name: fieldLabel('financial', 'intendedHousingArrangements', 'customer') });
  await housing.getByRole('radio', { name: /^Your version/ }).focus();
  await client.keyboard.press('ArrowDown');
  await expect(housing.getByRole('radio', { name: /^Saved version/ })).toBeChecked();
  await client.keyboard.press('ArrowUp');
  await expect(housing.getByRole('radio', { name: /^Your version/ })).toBeChecked();
  for (let i = 0; i < 6 && !(await save.evaluate((el) => el === document.activeElement)); i += 1)
    await client.keyboard.press('Tab');
  await expect(save).toBeFocused();
  await client.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expectStep(client, 'Asset Information');

  const saved = await request.get(`/api/applications/${id}`, { headers: bearer(lawyerToken) });
  expect(((await saved.json()) as { journey: { financial: Json } }).journey.financial).toMatchObject({
    monthlyIncome: 3000,
    intendedHousingArrangements: 'Move to a flat near the school',
  });
  await clientContext.close();
});

/* ── (4) A refused submit and a refused save ───────────────────────────────────────────────── */

test('a submit refused because the client submitted meanwhile says so at the top, focused, and needs attention', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const { id, email, password, clientName, lawyerToken } = await completeApplication(request);

  await signIn(page, demo.lawyer);
  await page.goto(`/applications/${id}/summary`);
  await expectStep(page, 'Final summary and submit');
  await expect(syncStatus(page)).toContainText('All changes saved');

  // Meanwhile the client submits it on their phone.
  const clientContext = await newPhoneContext(browser, testInfo);
  const client = await clientContext.newPage();
  await signIn(client, email, password);
  await client.goto(`/applications/${id}/summary`);
  await expectStep(client, 'Summary');
  await client.getByRole('button', { name: 'submit application' }).click();
  await client.getByRole('alertdialog').getByRole('button', { name: 'Yes', exact: true }).click();
  await expect(client).toHaveURL(/\/applications$/);
  await clientContext.close();

  await page.getByRole('button', { name: 'submit application' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Yes', exact: true }).click();

  // The server's own answer to the same submit: who submitted, and when.
  const answer = await submit(request, lawyerToken, id);
  expect(answer.status()).toBe(409);
  const { statusChange } = ((await answer.json()) as { details: { statusChange: { at: string; by: string; name: string } } })
    .details;
  expect(statusChange).toMatchObject({ by: 'client', name: clientName });

  const summary = page.locator('.error-summary');
  await expect(summary).toBeVisible();
  await expect(summary.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
  await expect(summary).toContainText('This application could not be submitted.');
  await expect(summary).toContainText(`${clientName} (your client) submitted this application ${onAt(statusChange.at)}.`);
  await expect(summary).toBeFocused();
  await expectInViewport(page, summary);
  await expect(syncStatus(page)).toContainText('Needs your attention');
  await expect(syncStatus(page)).not.toContainText('All changes saved');

  await shootAtEveryWidth(page, 'submit-refused', async () => {
    await expect(summary).toBeVisible();
  });

  // Read and dismissed: nothing waits any more.
  await summary.getByRole('button', { name: 'dismiss' }).click();
  await expect(summary).toBeHidden();
  await expect(syncStatus(page)).toContainText('All changes saved');
});

test('a save refused because the lawyer submitted meanwhile says who and when at the top of the client’s step', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { id, email, password, lawyerToken, clientToken } = await completeApplication(request);

  await signIn(page, email, password);
  await page.goto(`/applications/${id}/financial`);
  await expectStep(page, 'Financial Information');

  // Meanwhile the lawyer submits it.
  expect((await submit(request, lawyerToken, id)).status()).toBe(200);

  await field(page, 'financial', 'monthlyIncome', 'customer').fill('2700');
  await page.getByRole('button', { name: 'Save & Continue' }).click();

  // The server's own answer to the same save: who submitted, and when.
  const answer = await request.post('/api/applications/update/financial', {
    headers: bearer(clientToken),
    data: { applicationId: id, baseVersion: 1, journeyData: { financial: validSteps.financial } },
  });
  expect(answer.status()).toBe(409);
  const body = (await answer.json()) as { error: string; details: { statusChange: { at: string; name: string } } };
  expect(body.error).toBe('notEditable');

  const summary = page.locator('.error-summary');
  await expect(summary).toBeVisible();
  await expect(summary).toContainText('This application can no longer be changed.');
  await expect(summary).toContainText(
    `${body.details.statusChange.name} (your lawyer) submitted this application ${onAt(body.details.statusChange.at)}.`,
  );
  await expect(summary).toBeFocused();
  await expectInViewport(page, summary);
  await expect(page.getByRole('heading', { level: 1, name: 'Financial Information' })).toBeVisible();
  await expect(syncStatus(page)).toContainText('Needs your attention');
  await expect(syncStatus(page)).not.toContainText('All changes saved');
  await shootAtEveryWidth(page, 'save-refused', async () => {
    await expect(summary).toBeVisible();
  });

  // The changes can be let go: the application's details open, and nothing waits any more.
  await summary.getByRole('button', { name: 'Discard my changes to this step' }).click();
  await expect(page).toHaveURL(new RegExp(`/applications/${id}/details$`));
  await expect(syncStatus(page)).toContainText('All changes saved');
});

/* ── (7) The sticky action bar ─────────────────────────────────────────────────────────────── */

test('the first invalid field is brought into view above the sticky bar, and a toast never covers the bar', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const lawyerToken = await apiToken(request, demo.lawyer);
  const id = await createApplication(request, lawyerToken, validPersonal(freshEmail(), { lastName: surname('Sticky') }));
  await saveStep(request, lawyerToken, id, 'case', 0, { ...validSteps.case });

  await signIn(page, demo.lawyer);
  await page.goto(`/applications/${id}/case`);
  await expectStep(page, 'Case details');
  // An answer of a long step is cleared, and the page scrolled so that it sits at the bottom of the
  // screen, under the bar: the browser counts it as in view and would not scroll to it.
  const outstanding = field(page, 'case', 'outstandingFees', 'lawyer');
  await outstanding.fill('');
  await outstanding.evaluate((input) => window.scrollBy(0, input.getBoundingClientRect().bottom - window.innerHeight + 8));
  const bar = page.locator('.wizard-actions');
  expect(overlap((await outstanding.boundingBox())!, (await bar.boundingBox())!), 'the field starts under the bar').toBe(true);
  await bar.getByRole('button', { name: 'Save & Continue' }).click();

  await expect(outstanding).toBeFocused();
  const fieldBox = (await outstanding.locator('xpath=ancestor::*[contains(@class,"field")][1]').boundingBox())!;
  const barBox = (await bar.boundingBox())!;
  expect(fieldBox.y).toBeGreaterThanOrEqual(0);
  expect(fieldBox.y + fieldBox.height, 'the field, its label and message end above the bar').toBeLessThanOrEqual(barBox.y);

  // Saved offline: the toast says so on the next step, above its action bar, not over it.
  await outstanding.fill('1250');
  await context.setOffline(true);
  await bar.getByRole('button', { name: 'Save & Continue' }).click();
  await expectStep(page, 'Financial details');
  const toast = page.getByText('Saved on this device. It will be sent when you are back online.', { exact: true }).first();
  await expect(toast).toBeVisible();
  const nextBar = page.locator('.wizard-actions');
  await expect(async () => {
    const toastBox = (await page.locator('.toast').first().boundingBox())!;
    const nextBarBox = (await nextBar.boundingBox())!;
    expect(overlap(toastBox, nextBarBox), 'the toast and the action bar overlap').toBe(false);
  }).toPass();
  // The bar's button can be pressed while the toast is shown.
  await nextBar.getByRole('button', { name: 'Save & Continue' }).click({ trial: true, timeout: 2_000 });
  await context.setOffline(false);
});

test('the drawdown request form brings its first invalid field into view above its sticky bar too', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, demo.lawyer);
  await page.goto('/loans');
  await page
    .getByRole('link', { name: /LFAMA\d{5}/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Open Loan' })).toBeVisible();
  // Every answer above 'Assets for repayment' is given: that one is the first left to answer.
  await page.getByLabel('Drawdown amount').fill('1');
  await page.getByLabel('Invoice number').fill(`INV-STICKY-${unique()}`);
  await page.getByLabel('Stage of the case').fill('Disclosure');
  await page.getByLabel('Next hearing date').fill('14/03/2031');
  await page.getByLabel('Final order date').fill('30/09/2031');
  await page.getByLabel('Expected repayment date').fill('31/12/2031');
  const assets = page.getByLabel('Assets for repayment');
  const bar = page.locator('.drawdown-request__actions');
  await assets.evaluate((input) => window.scrollBy(0, input.getBoundingClientRect().bottom - window.innerHeight + 8));
  expect(overlap((await assets.boundingBox())!, (await bar.boundingBox())!), 'the field starts under the bar').toBe(true);

  await bar.getByRole('button', { name: 'request drawdown' }).click();
  await expect(assets).toBeFocused();
  const fieldBox = (await assets.locator('xpath=ancestor::*[contains(@class,"field")][1]').boundingBox())!;
  const barBox = (await bar.boundingBox())!;
  expect(fieldBox.y).toBeGreaterThanOrEqual(0);
  expect(fieldBox.y + fieldBox.height, 'the field, its label and message end above the bar').toBeLessThanOrEqual(barBox.y);
});

/* ── (16) Errors only after a change or a Save; dates the rule allows ──────────────────────── */

test('tabbing through an untouched step paints nothing red; a changed field or a Save does', async ({ page, request }) => {
  test.setTimeout(90_000);
  const lawyerToken = await apiToken(request, demo.lawyer);
  const id = await createApplication(request, lawyerToken, validPersonal(freshEmail(), { lastName: surname('Untouched') }));

  await signIn(page, demo.lawyer);
  await page.goto(`/applications/${id}/case`);
  await expectStep(page, 'Case details');
  const caseRef = field(page, 'case', 'caseRef', 'lawyer');
  await caseRef.focus();
  for (let i = 0; i < 12; i += 1) await page.keyboard.press('Tab');
  await expect(page.locator('.field__error')).toHaveCount(0);
  await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0);

  // A field changed and left says what is wrong with it, and only it.
  await caseRef.fill('x');
  await caseRef.fill('');
  await page.keyboard.press('Tab');
  await expect(page.locator('.field__error')).toHaveText(['Required field']);
  await expect(caseRef).toHaveAttribute('aria-invalid', 'true');

  // Save shows every one.
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect.poll(() => page.locator('.field__error').count()).toBeGreaterThan(5);
});

test('the moved-in month and year and the date of birth never offer a date the rule refuses', async ({ page, request }) => {
  test.setTimeout(90_000);
  const lawyerToken = await apiToken(request, demo.lawyer);
  // The current address from March 2023, the previous one from May 2012 (the fixture).
  const id = await createApplication(request, lawyerToken, validPersonal(freshEmail(), { lastName: surname('Dates') }));

  await signIn(page, demo.lawyer);
  await page.goto(`/applications/${id}/personal`);
  await expectStep(page, 'Client details');
  const now = new Date();
  const movedIn = fieldLabel('personal', 'addressHistory.date', 'lawyer');
  const year = (n: number) => page.getByRole('combobox', { name: `${movedIn} Year`, exact: true }).nth(n);
  const month = (n: number) => page.getByRole('combobox', { name: `${movedIn} Month`, exact: true }).nth(n);
  const [currentYear, previousYear, currentMonth, previousMonth] = [year(0), year(1), month(0), month(1)];
  const enabled = (select: Locator) =>
    select
      .locator('option:not([disabled])')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));

  // The current address: no year after this one; this year, no month after this one.
  expect(Math.max(...(await enabled(currentYear)).map(Number))).toBe(now.getFullYear());
  expect(await currentYear.locator(`option[value="${now.getFullYear() + 1}"]`).count()).toBe(0);
  await currentYear.selectOption(String(now.getFullYear()));
  await currentMonth.selectOption(String(now.getMonth() + 1));
  expect((await enabled(currentMonth)).map(Number)).toEqual(Array.from({ length: now.getMonth() + 1 }, (_, i) => i + 1));

  // The previous address: never after the current one's month (moved in there in this month).
  expect(Math.max(...(await enabled(previousYear)).map(Number))).toBe(now.getFullYear());
  await currentYear.selectOption('2023');
  await currentMonth.selectOption('3');
  const offered = (select: Locator) =>
    select.locator('option').evaluateAll((options) => options.map((o) => Number((o as HTMLOptionElement).value)).filter(Boolean));
  expect(Math.max(...(await offered(previousYear)))).toBe(2023);
  // Moved in there in May: 2023 would be after March 2023, so it is offered disabled until the month allows it.
  expect(await enabled(previousYear)).not.toContain('2023');
  await previousMonth.selectOption('1');
  await previousYear.selectOption('2023');
  expect((await enabled(previousMonth)).map(Number)).toEqual([1, 2, 3]);

  // The date of birth (1985, not a leap year): no 29, 30 or 31 February.
  await page.getByRole('combobox', { name: fieldLabel('personal', 'birthMonth', 'lawyer'), exact: true }).selectOption('2');
  const day = page.getByRole('combobox', { name: fieldLabel('personal', 'birthDayDay', 'lawyer'), exact: true });
  expect(
    await day.locator('option[disabled]').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
  ).toEqual(['29', '30', '31']);
});
