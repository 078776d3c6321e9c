import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { validPersonal, validSteps } from '../fixtures/journeys';
import { DEMO_PASSWORD, axeViolations, demo, signIn } from './support';

/**
 * From a new application to a signed loan, across three people on their own devices: the lawyer at
 * 1280 px submits, staff review, accept, take the Certificate of Advice and prepare the envelope on a
 * 1024 px tablet, the client signs on a 390 px phone with the code from the development mailbox, and
 * the loan is on the lawyer's /loans. Every email of the way is in the mailbox; axe checks each new
 * screen.
 */

test.describe.configure({ mode: 'serial' });
// axe is injected as a script: let it past the page's CSP, in this file only.
test.use({ bypassCSP: true });

const DESKTOP = { width: 1280, height: 800 };
const TABLET = { width: 1024, height: 768 };
const PHONE = { width: 390, height: 844 };

const run = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
const clientEmail = `signing-${run}@example.test`;
const clientPassword = 'Signing-pass-1';
const lastName = 'Ashdown';
const caseRef = `SIGN-${run}`.slice(0, 30);

let applicationId = 0;

type Json = Record<string, unknown>;

test.beforeEach(async ({}, testInfo) => {
  // One journey on one database: it runs once, in the phone project, and sets each person's width.
  test.skip(testInfo.project.name !== 'phone', 'the journey runs once, at the widths it sets itself');
});

async function apiToken(request: APIRequestContext, login: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await request.post('/api/auth', { data: { login, password } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** The emails the development mailbox holds for one address, newest first. */
async function mailTo(request: APIRequestContext, to: string): Promise<{ subject: string; text: string; links: string[] }[]> {
  const res = await request.get('/api/dev/mailbox');
  const emails = (await res.json()).emails as { to: string; subject: string; text: string; links: string[] }[];
  return emails.filter((e) => e.to === to);
}

async function person(browser: Browser, viewport: { width: number; height: number }, isMobile = false): Promise<Page> {
  const context = await browser.newContext({ viewport, isMobile, hasTouch: isMobile || viewport.width < 1200 });
  return context.newPage();
}

async function confirmYes(page: Page, question: string | RegExp): Promise<void> {
  const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await expect(dialog.getByText(question)).toBeVisible();
  await dialog.getByRole('button', { name: 'Yes', exact: true }).click();
}

async function expectNoViolations(page: Page, what: string) {
  expect(await axeViolations(page), what).toEqual([]);
}

/** A small, valid PDF: the Certificate of Advice staff upload. */
function certificatePdf(): Buffer {
  const body = [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
  ].join('\n');
  return Buffer.from(body);
}

test('the lawyer starts an application for a new client and submits it at 1280 px', async ({ browser, request }) => {
  const token = await apiToken(request, demo.lawyer);
  const auth = { Authorization: `Bearer ${token}` };
  const created = await request.post('/api/applications/create', {
    headers: auth,
    data: { journeyData: { personal: validPersonal(clientEmail, { lastName }) } },
  });
  expect(created.status(), await created.text()).toBe(201);
  applicationId = ((await created.json()) as { id: number }).id;
  // The lawyer's other steps, as the wizard saves them (the wizard itself is tested in applications.spec.ts).
  for (const [step, data] of Object.entries({ ...validSteps, case: { ...validSteps.case, caseRef } })) {
    if (step === 'client') continue;
    const res = await request.post(`/api/applications/update/${step}`, {
      headers: auth,
      data: { applicationId, baseVersion: 0, journeyData: { [step]: data as Json } },
    });
    expect(res.status(), `${step}: ${await res.text()}`).toBe(200);
  }

  const lawyer = await person(browser, DESKTOP);
  await signIn(lawyer, demo.lawyer);
  await lawyer.goto(`/applications/${applicationId}/summary`);
  await lawyer.getByRole('button', { name: 'submit application' }).click();
  await confirmYes(lawyer, 'Are you sure you want to submit this application?');
  await expect(lawyer.getByText('The application has been submitted.', { exact: true })).toBeVisible();
  await lawyer.context().close();
});

test('staff review, accept, take the certificate and prepare the envelope on a 1024 px tablet', async ({ browser, request }) => {
  test.skip(applicationId === 0, 'needs the application of the step before');
  const staff = await person(browser, TABLET);
  await signIn(staff, demo.admin);
  await staff.goto(`/applications/${applicationId}/details`);
  await expect(staff.getByRole('heading', { level: 1, name: 'Application details' })).toBeVisible();
  await expect(staff.getByRole('region', { name: 'Lawyer information' })).toContainText('Laura Bennett');
  await expect(staff.getByRole('region', { name: 'Case details' })).toContainText(caseRef);
  await expectNoViolations(staff, 'the review screen, submitted');

  const accept = staff.getByRole('button', { name: 'accept', exact: true });
  await expect(accept).toBeDisabled();
  for (const check of ['KYC/AML checks completed', 'Credit Check completed', 'Repayment Vehicle assessed']) {
    await staff.getByRole('checkbox', { name: check }).click();
    await expect(staff.getByRole('checkbox', { name: check })).toBeChecked();
  }
  await expect(accept).toBeEnabled();

  // The draft loan amount the contract will carry.
  await staff.getByLabel('New loan amount').fill('42500.50');
  await staff.getByRole('button', { name: 'update loan facility' }).click();
  await confirmYes(staff, /Are you sure you want to update the loan amount to £42,500\.50\?/);
  await expect(staff.locator('.details-figures')).toContainText('£42,500.50');

  await accept.click();
  await confirmYes(staff, 'Are you sure you want to accept this application?');
  await expect(staff.locator('.details-figures')).toContainText('accepted');

  // The Certificate of Advice, then the certificate check, then the envelope.
  await staff.getByLabel('Document type').selectOption({ label: 'Certificate of Advice' });
  await staff.locator('input[type="file"]').setInputFiles({
    name: 'certificate-of-advice.pdf',
    mimeType: 'application/pdf',
    buffer: certificatePdf(),
  });
  await expect(staff.getByText('certificate-of-advice.pdf')).toBeVisible();
  const certificate = staff.getByRole('checkbox', { name: 'Certificate of independent advice uploaded' });
  await expect(certificate).toBeEnabled();
  await certificate.click();
  await expect(certificate).toBeChecked();
  await staff.getByRole('button', { name: 'prepare docusign' }).click();
  await confirmYes(staff, 'Are you sure you want to prepare the docusign envelope?');
  await staff.getByRole('button', { name: 'Notify client' }).click();
  await confirmYes(staff, 'Are you sure you want to notify the client to sign the documents?');
  await expect(staff.getByRole('button', { name: 'Notify client' })).toHaveCount(0);
  await expectNoViolations(staff, 'the review screen, client notified');

  // Every email so far was written to the application and is on the review screen.
  const emails = staff.getByRole('region', { name: 'Application Emails' });
  await expect(emails.getByRole('listitem').first()).toBeVisible();
  await staff.context().close();

  expect((await mailTo(request, demo.lawyer)).some((m) => /accepted/i.test(m.subject))).toBe(true);
});

test('the client joins, reads and signs on a 390 px phone with the emailed code', async ({ browser, request }) => {
  test.skip(applicationId === 0, 'needs the application of the step before');
  // The invitation the lawyer's application sent; the client sets a password.
  const invitation = (await mailTo(request, clientEmail)).flatMap((m) => m.links).find((l) => l.includes('/sign-up-customer/'));
  expect(invitation, 'the invitation in the mailbox').toBeTruthy();
  const uuid = new URL(invitation!).pathname.split('/').pop();
  const joined = await request.post('/api/users/sign-up/complete', {
    data: { login: clientEmail, password: clientPassword, uuid },
  });
  expect(joined.status(), await joined.text()).toBe(200);

  const mail = await mailTo(request, clientEmail);
  expect(
    mail.some((m) => /accepted/i.test(m.subject)),
    'the acceptance email',
  ).toBe(true);
  const readyLink = mail.flatMap((m) => m.links).find((l) => l.includes('/application-esign-prepared'));
  expect(readyLink, 'the documents-ready email links to its notification page').toBeTruthy();

  const client = await person(browser, PHONE, true);
  await signIn(client, clientEmail, clientPassword);
  await client.goto(new URL(readyLink!).pathname);
  await client.getByRole('link', { name: /view documents/i }).click();
  await expect(client).toHaveURL(new RegExp(`/applications/${applicationId}/details`));
  await client.getByRole('button', { name: 'sign documents' }).click();
  await expect(client).toHaveURL(/\/esign\//);
  await expect(client.getByRole('heading', { level: 1, name: 'Sign your documents' })).toBeVisible();
  await expectNoViolations(client, 'the signing page');

  // Each document is opened (a new tab each); the page marks it read.
  const documents = client.getByRole('region', { name: '1. Read the documents' }).getByRole('link');
  const count = await documents.count();
  expect(count).toBeGreaterThanOrEqual(5);
  for (let i = 0; i < count; i += 1) {
    const opened = client.context().waitForEvent('page');
    await documents.nth(i).click();
    await (await opened).close();
  }

  await client.getByRole('button', { name: 'email me a code' }).click();
  let code = '';
  await expect
    .poll(async () => {
      const text = (await mailTo(request, clientEmail)).map((m) => m.text).join('\n');
      // The code email itself: other emails carry six digits too (the application reference A-000010).
      code = /one-time code is (\d{6})/.exec(text)?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  await client.getByLabel('Code from the email').fill(code);
  await client.getByRole('checkbox', { name: 'I have read the documents and I agree to their terms.' }).click();
  await client.getByRole('button', { name: 'sign documents' }).click();
  await expect(client.getByRole('heading', { level: 1, name: 'Documents signed' })).toBeVisible({ timeout: 30_000 });
  await expectNoViolations(client, 'the signing page, signed');

  await client.goto(`/applications/${applicationId}/details`);
  await expect(client.getByRole('button', { name: 'Download signed docs' })).toBeVisible();
  await client.context().close();
});

test('the loan is on the lawyer’s /loans, and every email of the way is in the mailbox', async ({ browser, request }) => {
  test.skip(applicationId === 0, 'needs the application of the step before');
  const lawyer = await person(browser, DESKTOP);
  await signIn(lawyer, demo.lawyer);
  await lawyer.goto(`/loans?search=${encodeURIComponent(caseRef)}`);
  const item = lawyer.getByRole('link', { name: new RegExp(lastName) });
  await expect(item).toBeVisible();
  await expect(item).toContainText('£42,500.50');
  await expect(item).toContainText(/LFAMA\d{5}/);
  await lawyer.context().close();

  const lawyerMail = (await mailTo(request, demo.lawyer)).map((m) => m.subject).join('\n');
  const clientMail = (await mailTo(request, clientEmail)).map((m) => m.subject).join('\n');
  expect(lawyerMail).toMatch(/accepted/i);
  expect(lawyerMail).toMatch(/loan/i);
  expect(clientMail).toMatch(/accepted/i);
  expect(clientMail).toMatch(/sign/i);
  expect(clientMail).toMatch(/code/i);
  expect(clientMail).toMatch(/loan|signed/i);
});
