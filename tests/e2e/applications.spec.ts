import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { fieldLabel } from '../../src/shared/journey/labels';
import type { JourneyStep } from '../../src/shared/journey/steps';
import { applicationStatusLabels } from '../../src/shared/rules/statuses';
import { DEMO_PASSWORD, demo, mailboxLink, signIn } from './support';
import { validPersonal, validSteps } from '../fixtures/journeys';

/**
 * The application journey in Chromium at 390 px. Every test makes its own
 * application (unique client email) so the tests can run in parallel on the shared server.
 */

test.beforeEach(async ({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the journey tests run at the phone viewport');
});

type Audience = 'lawyer' | 'customer';
type Json = Record<string, unknown>;

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const freshEmail = () => `e2e-${unique()}@example.test`;

/* ── Locators by the app's own wording ─────────────────────────────────────────────────────── */

function labelOf(step: JourneyStep, field: string, audience: Audience): string {
  return fieldLabel(step, field, audience);
}

function field(scope: Page | Locator, step: JourneyStep, name: string, audience: Audience): Locator {
  return scope.getByLabel(labelOf(step, name, audience), { exact: true });
}

/** Answers a Yes/No question (or any radio question) by its option's label. */
async function choose(scope: Page | Locator, question: string, option: string): Promise<void> {
  await scope.getByRole('radiogroup', { name: question, exact: true }).getByRole('radio', { name: option, exact: true }).click();
}

async function saveAndContinue(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save & Continue' }).click();
}

async function expectStep(page: Page, title: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/* ── The server, through its API ───────────────────────────────────────────────────────────── */

async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token, 'the session token in localStorage').toBeTruthy();
  return token!;
}

async function apiToken(request: APIRequestContext, login: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await request.post('/api/auth', { data: { login, password } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as Json;
  return (body.userToken ?? body.token) as string;
}

async function getApplication(request: APIRequestContext, token: string, id: number) {
  const res = await request.get(`/api/applications/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { status: string; journey: Record<string, Json>; journeyVersions: Record<string, number> };
}

async function createApplication(request: APIRequestContext, token: string, personal: Json): Promise<number> {
  const res = await request.post('/api/applications/create', {
    headers: { Authorization: `Bearer ${token}` },
    data: { journeyData: { personal } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

async function saveStepViaApi(
  request: APIRequestContext,
  token: string,
  id: number,
  step: JourneyStep,
  baseVersion: number,
  data: Json,
) {
  const res = await request.post(`/api/applications/update/${step}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { applicationId: id, baseVersion, journeyData: { [step]: data } },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** The client accepts the invitation in the development mailbox and sets a password. */
async function joinAsClient(request: APIRequestContext, email: string, password: string): Promise<string> {
  const uuid = (await invitationLink(request, email)).split('/').pop();
  const res = await request.post('/api/users/sign-up/complete', { data: { login: email, password, uuid } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { userToken: string }).userToken;
}

/** The invitation link of this client in the development mailbox, as a path on this server. */
const invitationLink = (request: APIRequestContext, email: string) => mailboxLink(request, email, /\/sign-up-customer\//);

/** A client-details step that passes every rule (API tests use the same shape). */
const personalAnswers = (email: string, lastName: string): Json => validPersonal(email, { lastName });
const caseAnswers: Json = { ...validSteps.case, caseRef: 'E2E-CASE' };
const financialAnswers: Json = { ...validSteps.financial };

/* ── Filling the steps ─────────────────────────────────────────────────────────────────────── */

/** The first day of next month, chosen on the calendar; answers its ISO date. */
async function pickNextMonthDay(page: Page, label: string): Promise<string> {
  await page.getByRole('button', { name: new RegExp(`^${escapeRegExp(label)}`) }).click();
  const picker = page.getByRole('dialog', { name: label });
  await picker.getByRole('button', { name: 'Next month' }).click();
  const now = new Date();
  const next = new Date(now.getFullYear(), now.getMonth() + 1, 15);
  const monthName = next.toLocaleString('en-GB', { month: 'long' });
  await picker.getByRole('button', { name: `15 ${monthName} ${next.getFullYear()}`, exact: true }).click();
  await expect(picker).toBeHidden();
  return `${next.getFullYear()}-${String(next.getMonth() + 1).padStart(2, '0')}-15`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface CaseInput {
  caseRef: string;
}

/** Every question of the case step; answers the ISO date chosen for 'when will more be known'. */
async function fillCaseStep(page: Page, audience: Audience, { caseRef }: CaseInput): Promise<string> {
  const label = (name: string) => labelOf('case', name, audience);
  await field(page, 'case', 'caseRef', audience).fill(caseRef);
  await field(page, 'case', 'timeEstimation', audience).fill('About a year');
  await field(page, 'case', 'stageOfProceedings', audience).fill('Financial dispute resolution');
  await choose(page, label('disputeLevel'), 'Neutral');
  await field(page, 'case', 'yearsMarried', audience).fill('12');
  await field(page, 'case', 'settlementPrinciples', audience).fill('An equal division of the matrimonial assets');
  await choose(page, label('preNuptualAgreement'), 'No');
  await choose(page, label('completion'), 'Greater than 70%');
  await field(page, 'case', 'feeEstimate', audience).fill('45000');
  await field(page, 'case', 'feeEstimateToReach', audience).fill('30000');
  await choose(page, label('relevantProceedings'), 'No');
  await choose(page, label('jurisDisputes'), 'No');
  await choose(page, label('maintenancePaid'), 'Yes');
  await choose(page, label('thirdPartyInvolvement'), 'No');
  await choose(page, label('settlementOffer'), 'Yes');
  await field(page, 'case', 'clientReactionDetails', audience).fill('Declined as too low');
  await field(page, 'case', 'outstandingFees', audience).fill('1250');
  await choose(page, label('clientSuffered'), 'No');
  return pickNextMonthDay(page, label('dateToKnowMore'));
}

async function fillFinancialStep(page: Page, audience: Audience): Promise<void> {
  await field(page, 'financial', 'estimationOfSettlementAmount', audience).fill('350000');
  await field(page, 'financial', 'monthlyIncome', audience).fill('3200');
  await field(page, 'financial', 'monthlyExpenditure', audience).fill('2100');
  await field(page, 'financial', 'nonEssMonthlyExpenditure', audience).fill('300');
  await field(page, 'financial', 'intendedHousingArrangements', audience).fill('Buy a smaller house nearby');
}

/** A small, well-formed one-page PDF. */
function tinyPdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

async function submitFromSummary(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'submit application' }).click();
  const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await expect(dialog.getByText('Are you sure you want to submit this application?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Yes', exact: true }).click();
  await expect(page).toHaveURL(/\/applications$/);
  await expect(page.getByText('The application has been submitted.', { exact: true })).toBeVisible();
}

/** The list, searched by the case reference, shows the application as submitted. */
async function expectListedAsSubmitted(page: Page, id: number, caseRef: string): Promise<void> {
  await page.goto(`/applications?search=${encodeURIComponent(caseRef)}`);
  const item = page.getByRole('link', { name: new RegExp(`A-0*${id}\\b`) });
  await expect(item).toBeVisible();
  await expect(item).toContainText(caseRef);
  await expect(item.locator('.badge')).toHaveText(applicationStatusLabels.submitted);
}

async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
      );
    }
  });
}

const applicationIdFromUrl = (page: Page) => Number(/\/applications\/(\d+)\//.exec(page.url())?.[1]);

/* ── 1. The lawyer's whole wizard ──────────────────────────────────────────────────────────── */

test('a lawyer creates an application, completes every step and submits it', async ({ page }) => {
  test.setTimeout(90_000);
  const audience = 'lawyer';
  const email = freshEmail();
  const lastName = `Whole${unique().replace(/\W/g, '')}`;
  const caseRef = `E2E-${unique()}`;
  await signIn(page, demo.lawyer);

  await page.goto('/applications/new');
  await expectStep(page, 'New application');
  const personal = (name: string) => field(page, 'personal', name, audience);
  await personal('title').selectOption('Ms');
  await personal('firstName').fill('Nina');
  await personal('lastName').fill(lastName);
  await personal('email').fill(email);
  await personal('contactNumber').fill('07700 900123');
  await page.getByLabel('Day', { exact: true }).selectOption('2');
  await page.getByLabel('Month', { exact: true }).selectOption('7');
  await page.getByLabel('Year', { exact: true }).selectOption('1985');
  await choose(page, labelOf('personal', 'metClient', audience), 'Yes');
  await personal('gender').selectOption('Female');
  await personal('nationality').selectOption('British');
  await choose(page, labelOf('personal', 'dependants', audience), 'Yes');
  await personal('dependantsUnder18').selectOption('2');
  await personal('dependantsOther').selectOption('0');

  // The current address found by postcode…
  await page.getByRole('button', { name: 'Add an address' }).click();
  const current = page.locator('.entry-card').filter({ has: page.getByRole('heading', { name: 'Current address' }) });
  await current.getByLabel('Postcode', { exact: true }).fill('sw1a1aa');
  const addressSelect = current.getByLabel('Address', { exact: true });
  await expect(addressSelect.locator('option')).toHaveCount(5);
  await addressSelect.selectOption({ index: 2 });
  const pickedAddress = await addressSelect.inputValue();
  expect(pickedAddress).toContain('Buckingham Gate');
  await current.getByRole('combobox', { name: 'Moved in (month and year) Month' }).selectOption('3');
  await current.getByRole('combobox', { name: 'Moved in (month and year) Year' }).selectOption('2023');
  // …the previous one typed in by hand.
  await page.getByRole('button', { name: 'Add a previous address' }).click();
  const previous = page.locator('.entry-card').filter({ has: page.getByRole('heading', { name: 'Previous address 1' }) });
  await previous.getByRole('button', { name: 'Enter address manually' }).click();
  await previous.getByLabel('Postcode', { exact: true }).fill('LS1 4DY');
  await previous.getByLabel('House name or number', { exact: true }).fill('5');
  await previous.getByLabel('Street', { exact: true }).fill('Park Row');
  await previous.getByLabel('Town or city', { exact: true }).fill('Leeds');
  await previous.getByRole('combobox', { name: 'Moved in (month and year) Month' }).selectOption('5');
  await previous.getByRole('combobox', { name: 'Moved in (month and year) Year' }).selectOption('2012');

  await personal('status').selectOption('employedFullTime');
  await personal('occupation').fill('Teacher');
  await personal('employer').fill('Leeds Academy');
  await personal('yearsWithEmployer').fill('6');
  await saveAndContinue(page);

  // Created: the wizard opens the first incomplete step.
  await expectStep(page, 'Case details');
  await expect(page).toHaveURL(/\/applications\/\d+\/case$/);
  const id = applicationIdFromUrl(page);
  expect(id).toBeGreaterThan(0);
  const dateToKnowMore = await fillCaseStep(page, audience, { caseRef });
  await saveAndContinue(page);

  await expectStep(page, 'Financial details');
  await fillFinancialStep(page, audience);
  await saveAndContinue(page);

  // Documents: no Form E, so the property (found by postcode) and an asset.
  await expectStep(page, 'Supporting documents and assets');
  const assetLabel = (name: string) => labelOf('asset', name, audience);
  await choose(page, assetLabel('submittedFormE'), 'No');
  await choose(page, assetLabel('additionalProperty'), 'Yes');
  await choose(page, assetLabel('addressType'), 'Find by postcode');
  await page.getByLabel('Postcode', { exact: true }).fill('M1 1AE');
  const propertyAddress = page.getByLabel(assetLabel('address'), { exact: true });
  await expect(propertyAddress.locator('option')).toHaveCount(4);
  await propertyAddress.selectOption({ index: 3 });
  const pickedProperty = await propertyAddress.inputValue();
  await field(page, 'asset', 'estimatedValue', audience).fill('420000');
  await field(page, 'asset', 'totalSum', audience).fill('150000');
  await field(page, 'asset', 'clientInterest', audience).fill('50');
  await choose(page, assetLabel('includeOtherAssets'), 'Yes');
  const asset = page.getByRole('group', { name: 'Asset 1' });
  await asset.getByLabel(assetLabel('assets.type'), { exact: true }).selectOption('savings');
  await asset.getByLabel(assetLabel('assets.valueOfRealisable'), { exact: true }).fill('12000');
  await asset.getByLabel(assetLabel('assets.clientsInterest'), { exact: true }).fill('100');
  await field(page, 'asset', 'assetValue', audience).fill('222000');
  await field(page, 'asset', 'routeToRepayment', audience).fill('From the settlement proceeds');
  await saveAndContinue(page);

  await expectStep(page, 'Independent advice');
  await page.getByRole('radio', { name: /^Greenway Legal Advice/ }).click();
  await page.getByRole('checkbox', { name: labelOf('independent', 'consent', audience) }).click();
  await page.getByRole('checkbox', { name: labelOf('independent', 'authorised', audience) }).click();
  await saveAndContinue(page);

  await expectStep(page, 'Final summary and submit');
  await expect(page.getByText(caseRef)).toBeVisible();
  await submitFromSummary(page);
  await expectListedAsSubmitted(page, id, caseRef);

  // The server holds the submitted application and every step as entered.
  const token = await tokenOf(page);
  const saved = await getApplication(page.request, token, id);
  expect(saved.status).toBe('submitted');
  expect(saved.journeyVersions).toMatchObject({ personal: 1, case: 1, financial: 1, asset: 1, independent: 1 });
  expect(saved.journey.personal).toMatchObject({
    title: 'Ms',
    firstName: 'Nina',
    lastName,
    email,
    contactNumber: '07700 900123',
    birthDayDay: 2,
    birthMonth: 7,
    birthYear: 1985,
    metClient: true,
    gender: 'Female',
    nationality: 'British',
    dependants: true,
    dependantsUnder18: 2,
    dependantsOther: 0,
    status: 'employedFullTime',
    occupation: 'Teacher',
    employer: 'Leeds Academy',
    yearsWithEmployer: 6,
    addressHistory: [
      { type: 'postcode', postcode: 'SW1A 1AA', address: pickedAddress, date: '2023-03-01' },
      { type: 'manually', postcode: 'LS1 4DY', house: '5', street: 'Park Row', city: 'Leeds', date: '2012-05-01' },
    ],
  });
  expect(saved.journey.case).toEqual({
    caseRef,
    timeEstimation: 'About a year',
    stageOfProceedings: 'Financial dispute resolution',
    disputeLevel: 'optionC',
    yearsMarried: 12,
    settlementPrinciples: 'An equal division of the matrimonial assets',
    preNuptualAgreement: false,
    completion: 'greater',
    feeEstimate: 45000,
    feeEstimateToReach: 30000,
    relevantProceedings: false,
    jurisDisputes: false,
    maintenancePaid: true,
    thirdPartyInvolvement: false,
    settlementOffer: true,
    clientReactionDetails: 'Declined as too low',
    outstandingFees: 1250,
    clientSuffered: false,
    dateToKnowMore,
  });
  expect(saved.journey.financial).toEqual({
    estimationOfSettlementAmount: 350000,
    monthlyIncome: 3200,
    monthlyExpenditure: 2100,
    nonEssMonthlyExpenditure: 300,
    intendedHousingArrangements: 'Buy a smaller house nearby',
  });
  expect(saved.journey.asset).toMatchObject({
    submittedFormE: false,
    additionalProperty: true,
    addressType: 'postcode',
    postcode: 'M1 1AE',
    address: pickedProperty,
    estimatedValue: 420000,
    totalSum: 150000,
    clientInterest: 50,
    includeOtherAssets: true,
    assets: [{ type: 'savings', valueOfRealisable: 12000, clientsInterest: 100 }],
    assetValue: 222000,
    routeToRepayment: 'From the settlement proceeds',
  });
  expect(saved.journey.independent).toMatchObject({ solicitorId: expect.any(Number), consent: true, authorised: true });
});

/* ── 2. Offline in the middle of a step ────────────────────────────────────────────────────── */

test('offline, every typed value survives a closed page and each save reaches the server once', async ({ page, context }) => {
  test.setTimeout(90_000);
  const audience = 'lawyer';
  const caseRef = `OFF-${unique()}`;
  await signIn(page, demo.lawyer);
  await waitForServiceWorker(page);
  const token = await tokenOf(page);
  const id = await createApplication(page.request, token, personalAnswers(freshEmail(), `Offline${unique().replace(/\W/g, '')}`));
  const stepUrl = (step: string) => `/applications/${id}/${step}`;
  const shell = page.getByTestId('sync-status');

  // The step has been opened once online: the application is kept on the device.
  await page.goto(stepUrl('case'));
  await expectStep(page, 'Case details');
  await expect(field(page, 'case', 'caseRef', audience)).toBeEditable();
  await context.setOffline(true);

  const dateToKnowMore = await fillCaseStep(page, audience, { caseRef });
  await saveAndContinue(page);
  await expectStep(page, 'Financial details');
  await expect(
    page.getByText('Saved on this device. It will be sent when you are back online.', { exact: true }).first(),
  ).toBeVisible();
  await expect(shell).toContainText('1 change waiting for a connection');

  // Half of the next step on a slow phone, then the page is closed at once: the last field's write
  // to the device is still to come, and what the page kept as it went away brings it back.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 30 });
  await field(page, 'financial', 'estimationOfSettlementAmount', audience).fill('275000');
  await field(page, 'financial', 'monthlyIncome', audience).fill('2950');
  await field(page, 'financial', 'intendedHousingArrangements', audience).fill('Stay with a sister for a year');
  await page.close();

  // A new page, still offline, at the same address: every value is back.
  const again = await context.newPage();
  await again.goto(stepUrl('financial'));
  await expectStep(again, 'Financial details');
  await expect(field(again, 'financial', 'estimationOfSettlementAmount', audience)).toHaveValue('275000');
  await expect(field(again, 'financial', 'monthlyIncome', audience)).toHaveValue('2950');
  await expect(field(again, 'financial', 'intendedHousingArrangements', audience)).toHaveValue('Stay with a sister for a year');
  await expect(again.getByTestId('sync-status')).toContainText('1 change waiting for a connection');

  // The saved case step shows what was typed, too.
  // The financial step is not saved yet, so leaving it asks first; its draft stays on the device.
  await again.getByRole('link', { name: /Case details/ }).click();
  await again
    .getByRole('alertdialog', { name: 'Changes will not be saved. Are you sure want exit?' })
    .getByRole('button', { name: 'Yes' })
    .click();
  await expectStep(again, 'Case details');
  await expect(field(again, 'case', 'caseRef', audience)).toHaveValue(caseRef);
  await expect(field(again, 'case', 'settlementPrinciples', audience)).toHaveValue('An equal division of the matrimonial assets');
  await expect(field(again, 'case', 'clientReactionDetails', audience)).toHaveValue('Declined as too low');
  await expect(field(again, 'case', 'outstandingFees', audience)).toHaveValue('1250');
  await expect(
    again.getByRole('radiogroup', { name: labelOf('case', 'maintenancePaid', audience) }).getByRole('radio', { name: 'Yes' }),
  ).toBeChecked();

  // The rest of the financial step, saved offline too.
  await again.getByRole('link', { name: /Financial details/ }).click();
  await expectStep(again, 'Financial details');
  await expect(field(again, 'financial', 'monthlyIncome', audience)).toHaveValue('2950');
  await expect(field(again, 'financial', 'intendedHousingArrangements', audience)).toHaveValue('Stay with a sister for a year');
  await field(again, 'financial', 'monthlyExpenditure', audience).fill('1900');
  await field(again, 'financial', 'nonEssMonthlyExpenditure', audience).fill('150');
  await saveAndContinue(again);
  await expectStep(again, 'Supporting documents and assets');
  await expect(again.getByTestId('sync-status')).toContainText('2 changes waiting for a connection');

  // Back online: the queue is sent and the server holds each step once.
  await context.setOffline(false);
  await expect(again.getByTestId('sync-status')).toContainText('All changes saved', { timeout: 20_000 });
  const saved = await getApplication(again.request, token, id);
  expect(saved.journeyVersions).toMatchObject({ personal: 1, case: 1, financial: 1 });
  expect(saved.journey.case).toEqual({
    caseRef,
    timeEstimation: 'About a year',
    stageOfProceedings: 'Financial dispute resolution',
    disputeLevel: 'optionC',
    yearsMarried: 12,
    settlementPrinciples: 'An equal division of the matrimonial assets',
    preNuptualAgreement: false,
    completion: 'greater',
    feeEstimate: 45000,
    feeEstimateToReach: 30000,
    relevantProceedings: false,
    jurisDisputes: false,
    maintenancePaid: true,
    thirdPartyInvolvement: false,
    settlementOffer: true,
    clientReactionDetails: 'Declined as too low',
    outstandingFees: 1250,
    clientSuffered: false,
    dateToKnowMore,
  });
  expect(saved.journey.financial).toEqual({
    estimationOfSettlementAmount: 275000,
    monthlyIncome: 2950,
    monthlyExpenditure: 1900,
    nonEssMonthlyExpenditure: 150,
    intendedHousingArrangements: 'Stay with a sister for a year',
  });
});

/* ── 3. The same step changed by the lawyer and by the client ──────────────────────────────── */

test('the client and the lawyer save the same step: the second chooses field by field', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const password = 'Client-pass-3';
  const email = freshEmail();
  const lawyerToken = await apiToken(request, demo.lawyer);
  const id = await createApplication(request, lawyerToken, personalAnswers(email, `Conflict${unique().replace(/\W/g, '')}`));
  await saveStepViaApi(request, lawyerToken, id, 'case', 0, { ...caseAnswers, caseRef: `CON-${unique()}` });
  await saveStepViaApi(request, lawyerToken, id, 'financial', 0, financialAnswers);
  const clientToken = await joinAsClient(request, email, password);
  await saveStepViaApi(request, clientToken, id, 'client', 0, { clientAgree: true });

  // Both open the financial step at version 1.
  await signIn(page, demo.lawyer);
  await page.goto(`/applications/${id}/financial`);
  await expectStep(page, 'Financial details');
  await expect(field(page, 'financial', 'monthlyIncome', 'lawyer')).toHaveValue('2500');

  const clientContext = await browser.newContext({ ...testInfo.project.use, baseURL: testInfo.project.use.baseURL });
  const client = await clientContext.newPage();
  await signIn(client, email, password);
  await client.goto(`/applications/${id}/financial`);
  await expectStep(client, 'Financial Information');
  await expect(field(client, 'financial', 'monthlyIncome', 'customer')).toHaveValue('2500');

  // The lawyer saves first…
  await field(page, 'financial', 'monthlyIncome', 'lawyer').fill('3000');
  await saveAndContinue(page);
  await expectStep(page, 'Supporting documents and assets');

  // …then the client saves other answers on the older version and is asked what to keep.
  await field(client, 'financial', 'monthlyIncome', 'customer').fill('2800');
  await field(client, 'financial', 'intendedHousingArrangements', 'customer').fill('Move to a flat near the school');
  await saveAndContinue(client);
  const dialog = client.getByRole('dialog', { name: 'This step was changed by someone else' });
  await expect(dialog).toBeVisible();
  await expect(client.getByText('Changed by someone else: choose what to keep')).toBeVisible();
  const income = dialog.getByRole('group', { name: labelOf('financial', 'monthlyIncome', 'customer') });
  await expect(income.getByRole('radio', { name: /^Your version/ })).toBeChecked();
  await expect(income.getByRole('radio', { name: /^Your version/ })).toHaveAccessibleName(/2,800/);
  await expect(income.getByRole('radio', { name: /^Saved version/ })).toHaveAccessibleName(/3,000/);
  const housing = dialog.getByRole('group', { name: labelOf('financial', 'intendedHousingArrangements', 'customer') });
  await expect(housing.getByRole('radio', { name: /^Saved version/ })).toHaveAccessibleName(/Rent near family/);
  // Fields nobody changed are not asked about.
  await expect(dialog.getByRole('group')).toHaveCount(2);
  await income.getByRole('radio', { name: /^Saved version/ }).check();
  await dialog.getByRole('button', { name: 'Save chosen values' }).click();
  await expect(dialog).toBeHidden();
  await expectStep(client, 'Asset Information');

  // The server holds the chosen values, on top of the lawyer's save.
  const saved = await getApplication(request, lawyerToken, id);
  expect(saved.journey.financial).toEqual({
    ...financialAnswers,
    monthlyIncome: 3000,
    intendedHousingArrangements: 'Move to a flat near the school',
  });
  expect(saved.journeyVersions.financial).toBe(3);
  await clientContext.close();
});

/* ── 4. The client's own form on a phone ───────────────────────────────────────────────────── */

test('the client joins, completes their own form on the phone and submits it', async ({ page, request }) => {
  test.setTimeout(90_000);
  const audience = 'customer';
  const password = 'Client-pass-4';
  const email = freshEmail();
  const lastName = `Client${unique().replace(/\W/g, '')}`;
  const caseRef = `CLI-${unique()}`;
  const lawyerToken = await apiToken(request, demo.lawyer);
  const id = await createApplication(request, lawyerToken, personalAnswers(email, lastName));

  // The invitation in the mailbox: join and set a password.
  await page.goto(await invitationLink(request, email));
  await page.getByRole('link', { name: 'Join platform' }).click();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'sign up' }).click();
  await expect(page).toHaveURL(/\/get-started$/);
  await page.getByRole('link', { name: 'Get started' }).click();

  // A client with one application starts on it (decision 336): the first step they have still to
  // do, the confirmation.
  await expect(page).toHaveURL(new RegExp(`/applications/${id}/client$`));
  await expectStep(page, 'Client Confirmations');

  // Their details, as the lawyer entered them, worded for them.
  await page.getByRole('link', { name: /Personal Information/ }).click();
  await expectStep(page, 'Personal Information');
  await expect(field(page, 'personal', 'lastName', audience)).toHaveValue(lastName);
  await expect(page.getByRole('radiogroup', { name: labelOf('personal', 'dependants', audience) })).toBeVisible();
  await field(page, 'personal', 'contactNumber', audience).fill('07700 900777');
  await saveAndContinue(page);

  await expectStep(page, 'Client Confirmations');
  await page.getByRole('checkbox', { name: labelOf('client', 'clientAgree', audience) }).click();
  await saveAndContinue(page);

  await expectStep(page, 'Case Information');
  const dateToKnowMore = await fillCaseStep(page, audience, { caseRef });
  await saveAndContinue(page);

  await expectStep(page, 'Financial Information');
  await fillFinancialStep(page, audience);
  await saveAndContinue(page);

  // A Form E, uploaded as a small PDF.
  await expectStep(page, 'Asset Information');
  await choose(page, labelOf('asset', 'submittedFormE', audience), 'Yes');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'form-e.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Form E') });
  const upload = page.getByRole('list', { name: 'Chosen files' }).getByRole('listitem').filter({ hasText: 'form-e.pdf' });
  await expect(upload).toContainText('Uploaded', { timeout: 20_000 });
  await field(page, 'asset', 'assetValue', audience).fill('180000');
  await field(page, 'asset', 'routeToRepayment', audience).fill('Repaid from my share of the house sale');
  await saveAndContinue(page);

  await expectStep(page, 'Independent Advice');
  await page.getByRole('radio', { name: /^Northgate Independent Solicitors/ }).click();
  await expect(page.getByRole('checkbox', { name: labelOf('independent', 'authorised', 'lawyer') })).toHaveCount(0);
  await saveAndContinue(page);

  await expectStep(page, 'Summary');
  await expect(page.getByText(caseRef)).toBeVisible();
  await submitFromSummary(page);
  await expectListedAsSubmitted(page, id, caseRef);

  const saved = await getApplication(page.request, await tokenOf(page), id);
  expect(saved.status).toBe('submitted');
  expect(saved.journeyVersions).toMatchObject({ personal: 2, client: 1, case: 1, financial: 1, asset: 1, independent: 1 });
  expect(saved.journey.personal).toMatchObject({ lastName, contactNumber: '07700 900777' });
  expect(saved.journey.client).toEqual({ clientAgree: true });
  expect(saved.journey.case).toMatchObject({ caseRef, dateToKnowMore, maintenancePaid: true });
  expect(saved.journey.asset).toMatchObject({ submittedFormE: true, documents: [expect.any(Number)], assetValue: 180000 });
  expect(saved.journey.independent).toMatchObject({ solicitorId: expect.any(Number) });
  expect(saved.journey.independent).not.toHaveProperty('authorised');
});
