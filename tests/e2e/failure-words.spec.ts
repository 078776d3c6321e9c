import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { validPersonal, validSteps } from '../fixtures/journeys';
import { DEMO_PASSWORD, demo, signIn, everyLawyerDeclarationTrue } from './support';

/**
 * When something goes wrong, or nothing is there yet, the screens say so as truly as the happy path
 * (docs/decisions.md 445–457): actions only where they can do something, words from the label
 * tables and addressed to their reader, empty pages that say why, and touch targets a finger can
 * press. On a 390 px phone; a few checks also at 1024 px with touch.
 */

test.beforeEach(async ({}, testInfo) => {
  // One database for the whole run: these journeys change it, so they run once, in the phone project.
  test.skip(testInfo.project.name !== 'phone', 'runs once, on the 390 px phone');
});

const run = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

type Json = Record<string, unknown>;

async function apiToken(request: APIRequestContext, login: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await request.post('/api/auth', { data: { login, password } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** A call as `token`, with an Idempotency-Key (the calls that take one need it; the others ignore it). */
async function call(request: APIRequestContext, token: string, method: 'GET' | 'POST', path: string, data?: Json): Promise<Json> {
  const res = await request.fetch(`/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': randomUUID() },
    ...(data ? { data } : {}),
  });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.status() === 204 ? {} : ((await res.json()) as Json);
}

interface Mail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** The development mailbox's emails to one address, newest first. */
async function mailTo(request: APIRequestContext, to: string): Promise<Mail[]> {
  const res = await request.get('/api/dev/mailbox');
  return ((await res.json()).emails as Mail[]).filter((mail) => mail.to === to);
}

/** The box of an element, which must be on the page. */
async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  expect(found, 'the element has a box').not.toBeNull();
  return found!;
}

// ── (8) Actions appear only when they can do something; (9) the lawyer's 'Download signed docs' ──

test.describe('a client’s application from acceptance to signing', () => {
  test.describe.configure({ mode: 'serial' });

  const clientEmail = `words-${run}@example.test`;
  const clientPassword = 'Words-pass-1';
  let applicationId = 0;
  let lawyer = '';
  let admin = '';
  let client = '';

  test('set up: the lawyer’s application, submitted, accepted, its contract documents not made yet', async ({ request }) => {
    lawyer = await apiToken(request, demo.lawyer);
    admin = await apiToken(request, demo.admin);
    const created = await call(request, lawyer, 'POST', '/applications/create', {
      journeyData: { personal: validPersonal(clientEmail, { lastName: 'Wordsworth' }) },
    });
    applicationId = created.id as number;
    for (const [step, data] of Object.entries(validSteps)) {
      if (step === 'client') continue;
      await call(request, lawyer, 'POST', `/applications/update/${step}`, {
        applicationId,
        baseVersion: 0,
        journeyData: { [step]: data as Json },
      });
    }
    // The client joins through the invitation in the mailbox.
    let invitation: string | undefined;
    await expect
      .poll(async () => {
        invitation = (await mailTo(request, clientEmail))
          .flatMap((mail) => mail.links)
          .find((l) => l.includes('/sign-up-customer/'));
        return invitation;
      })
      .toBeTruthy();
    const joined = await request.post('/api/users/sign-up/complete', {
      data: { login: clientEmail, password: clientPassword, uuid: new URL(invitation!).pathname.split('/').pop() },
    });
    expect(joined.status(), await joined.text()).toBe(200);
    client = await apiToken(request, clientEmail, clientPassword);

    await call(request, lawyer, 'POST', '/applications/state/update', { applicationId, state: 'submitted' });
    for (const check of ['kycAmlCheck', 'credidCheck', 'repaymentVehicle'])
      await call(request, admin, 'POST', '/applications/checks', { applicationId, check, status: true });
    await call(request, admin, 'POST', '/loans/update', { applicationId, amount: 40_000 });
    await call(request, admin, 'POST', '/applications/state/update', { applicationId, state: 'providerAccepted' });
    // Accepting makes the contract documents; they are taken away again, as when making them failed.
    let files: { key: string; type: string }[] = [];
    await expect
      .poll(async () => {
        files = (await call(request, admin, 'GET', `/applications/${applicationId}`)).files as typeof files;
        return files.length;
      })
      .toBeGreaterThanOrEqual(6);
    for (const file of files) await call(request, admin, 'POST', '/applications/file/delete', { fileKey: file.key });
  });

  test('accepted without documents: no button to documents that are not there, and what happens next', async ({ page }) => {
    test.skip(applicationId === 0, 'needs the application of the step before');
    await signIn(page, clientEmail, clientPassword);
    await page.goto(`/applications/${applicationId}/details`);
    await expect(page.getByText('No files yet.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'i no longer wish to proceed' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'view documents and get independent advice' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'What happens next' })).toHaveText(
      'What happens next' +
        'The provider has accepted your application and is preparing your contract documents. They will appear here; you will then get independent legal advice on them (a fixed fee of £250 plus VAT).',
    );

    // The acceptance email's page does not promise the documents either.
    await page.goto(`/applications/${applicationId}/application-provider-accepted-customer`);
    await expect(page.getByRole('heading', { level: 1, name: 'Application accepted' })).toBeVisible();
    await expect(
      page.getByText('The documents are not ready yet. You will receive an email once they are.', { exact: true }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'view documents and get independent advice' })).toHaveCount(0);
    await page.getByRole('link', { name: 'View application', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/applications/${applicationId}/details$`));
  });

  test('set up: staff take the certificate of advice and prepare the envelope', async ({ request }) => {
    test.skip(applicationId === 0, 'needs the application of the step before');
    // Staff take the certificate, tick it and prepare the envelope (which makes the documents again).
    const upload = await request.post('/api/applications/file/upload', {
      headers: { Authorization: `Bearer ${admin}`, 'Idempotency-Key': randomUUID() },
      multipart: {
        applicationId: String(applicationId),
        type: 'solicitorLetter',
        fileName: 'certificate-of-advice.pdf',
        file: { name: 'certificate-of-advice.pdf', mimeType: 'application/pdf', buffer: certificatePdf() },
      },
    });
    expect(upload.status(), await upload.text()).toBe(201);
    await call(request, admin, 'POST', '/applications/checks', { applicationId, check: 'independentAdvice', status: true });
    await call(request, admin, 'POST', '/docusign/init', { applicationId, state: 'esignPrepared' });
  });

  test('after the certificate of advice: the documents to read, never advice still to get', async ({ page }) => {
    test.skip(applicationId === 0, 'needs the application of the step before');
    await signIn(page, clientEmail, clientPassword);
    await page.goto(`/applications/${applicationId}/details`);
    await expect(page.getByRole('button', { name: 'View documents', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'view documents and get independent advice' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'What happens next' })).toHaveText(
      'What happens next' +
        'Your certificate of independent advice has been received and your documents are being prepared for signing. You will receive an email once they are ready to sign.',
    );
    await page.getByRole('button', { name: 'View documents', exact: true }).click();
    await expect(
      page.getByText(
        'Your certificate of independent advice has been received. These are the documents you will be asked to sign.',
        {
          exact: true,
        },
      ),
    ).toBeVisible();

    // The old acceptance email's page says the application moved on, instead of sending her for advice.
    await page.goto(`/applications/${applicationId}/application-provider-accepted-customer`);
    await expect(
      page.getByText(
        'Since this email was sent, the application has moved on. Your certificate of independent advice has been received and your documents are being prepared for signing. You will receive an email once they are ready to sign.',
        { exact: true },
      ),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'view documents and get independent advice' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'View application', exact: true })).toBeVisible();
  });

  test('set up: staff notify the client, who signs with the emailed code', async ({ request }) => {
    test.skip(applicationId === 0, 'needs the application of the step before');
    await call(request, admin, 'POST', '/docusign/notify', { applicationId });
    const signing = await call(request, client, 'POST', '/docusign/sign', { applicationId });
    const token = String(signing.envelopUrl).split('/').pop();
    await call(request, client, 'POST', `/esign/${token}/code`, {});
    let code = '';
    await expect
      .poll(async () => {
        const text = (await mailTo(request, clientEmail)).find(
          (mail) => mail.subject === 'Your code to sign your documents',
        )?.text;
        code = /one-time code is (\d{6})/.exec(text ?? '')?.[1] ?? '';
        return code;
      })
      .toMatch(/^\d{6}$/);
    await call(request, client, 'POST', `/esign/${token}/sign`, { code, agree: true });
  });

  test('once signed, the lawyer has ‘Download signed docs’ as the client does', async ({ page }) => {
    test.skip(applicationId === 0, 'needs the application of the step before');
    await signIn(page, demo.lawyer);
    await page.goto(`/applications/${applicationId}/details`);
    await expect(page.getByRole('heading', { level: 1, name: 'Application details' })).toBeVisible();
    await page.getByRole('button', { name: 'Download signed docs' }).click();
    const signed = page.getByRole('region', { name: 'Signed documents' });
    for (const name of [
      'Pre-Contract Credit Information',
      'Credit Agreement',
      'Assignment Agreement',
      'Terms and Conditions',
      'Pre-Contractual Explanations',
    ])
      await expect(signed.getByRole('heading', { level: 3, name, exact: true })).toBeVisible();
    await expect(signed.getByRole('button', { name: /^download / })).toHaveCount(5);
  });
});

/** A small, valid PDF: the Certificate of Advice staff upload. */
function certificatePdf(): Buffer {
  return Buffer.from(
    [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
    ].join('\n'),
  );
}

test('a loan made without signing in the portal offers no ‘Download signed docs’ that would find nothing', async ({ page }) => {
  // The demo's loan was not signed here.
  await signIn(page, demo.customer);
  // A client with one application starts on it (decision 336).
  await page.goto('/');
  await expect(page).toHaveURL(/\/applications\/\d+\/details$/);
  await expect(page.getByRole('region', { name: 'What happens next' })).toHaveText(
    'What happens next' +
      'You have signed the documents and your loan has been created. When your lawyer requests a drawdown from it, you will be asked to approve it.',
  );
  await expect(page.getByRole('button', { name: 'Download signed docs' })).toHaveCount(0);
});

test('a firm with active cases is not offered a delete that would be refused; it says why', async ({ page, request }) => {
  const firms = (await call(request, await apiToken(request, demo.admin), 'GET', '/firms?pageSize=100')).items as {
    id: number;
    firmName: string;
  }[];
  const firm = firms.find((f) => f.firmName === 'Harbour & Vale Solicitors LLP')!;
  await signIn(page, demo.admin);
  await page.goto(`/firms/${firm.id}`);
  await page.getByRole('button', { name: 'Firm - details' }).click();
  await expect(page.getByRole('button', { name: 'edit' })).toBeVisible();
  await expect(
    page.getByText("The law firm can't be deleted due to its lawyers having active cases", { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'delete' })).toHaveCount(0);
});

// ── (9) Words ──

test('the status filter shows every status in words from the label table', async ({ page }) => {
  await signIn(page, demo.admin);
  await page.goto('/applications');
  await expect(page.getByLabel('Status').locator('option')).toHaveText([
    'All statuses',
    'started',
    'incomplete',
    'submitted',
    'provider accepted',
    'provider rejected',
    'provider approved',
    'provider denied',
    'provider accepted (documents prepared)',
    'provider accepted (signing complete)',
    'provider accepted (client notified)',
    'client accepted',
    'client approved',
    'client rejected',
    'approved',
  ]);
});

test('the drawdown approval email speaks to the client, not of her', async ({ request }) => {
  const lawyer = await apiToken(request, demo.lawyer);
  const admin = await apiToken(request, demo.admin);
  const client = await apiToken(request, demo.customer);
  // Chris Walker's loan (the demo's client): other journeys make loans of their own.
  const loans = (await call(request, lawyer, 'GET', '/loans?pageSize=100')).items as {
    applicationId: number;
    clientName: string;
  }[];
  const created = await call(request, lawyer, 'POST', '/drawdowns', {
    applicationId: loans.find((loan) => loan.clientName === 'Chris')!.applicationId,
    amount: 12.34,
    invoiceNumber: `INV-${run}`,
    stageOfCase: 'First appointment',
    materialChanges: false,
    nextHearingDate: '15/01/2027',
    finalOrderDate: '30/06/2027',
    reaplyAssets: 'Share of the sale proceeds of the former matrimonial home',
    expectedRepaymentDate: '31/12/2027',
    lawyerDeclarations: everyLawyerDeclarationTrue(),
  });
  const id = created.id as number;
  await call(request, admin, 'POST', `/drawdowns/${id}/state`, { state: 'providerApproved' });
  let mail: Mail | undefined;
  await expect
    .poll(async () => {
      mail = (await mailTo(request, demo.customer)).find((m) => m.links.some((link) => link.endsWith(`/drawdowns/${id}`)));
      return mail;
    })
    .toBeTruthy();
  expect(mail!.subject).toBe('A drawdown waits for your approval');
  expect(mail!.text.split('\n\n').slice(0, 2)).toEqual([
    'A drawdown waits for your approval',
    'The provider has approved a drawdown of £12.34 from your loan, requested by your lawyer. Please review it, then approve or reject it.',
  ]);
  // The credit is given back: the client rejects it.
  await call(request, client, 'POST', `/drawdowns/${id}/state`, { state: 'customerRejected' });
});

test('amounts in list rows carry their label at every width', async ({ page }) => {
  await signIn(page, demo.admin);
  for (const width of [390, 1024, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/loans');
    const loan = page.getByRole('link', { name: /Chris Walker/ }).first();
    await expect(loan.getByText('Credit available', { exact: true })).toBeVisible();
    await page.goto('/drawdowns');
    const drawdown = page.getByRole('link', { name: /Drawdown \d+/ }).first();
    await expect(drawdown.getByText('Amount', { exact: true })).toBeVisible();
    await page
      .getByRole('link', { name: /Drawdown \d+/ })
      .first()
      .click();
    await page.getByRole('link', { name: 'Open loan' }).click();
    const row = page.getByRole('region', { name: 'Drawdowns' }).getByRole('link').first();
    await expect(row.getByText('Amount', { exact: true })).toBeVisible();
  }
});

test('long step names are readable on a phone: every step’s whole name on its own line', async ({ page }) => {
  await signIn(page, demo.lawyer);
  await page.goto('/applications/new');
  const steps = page.getByRole('navigation', { name: 'Application steps' });
  await expect(steps.locator('[aria-current="step"]')).toContainText('Client details');
  await steps.getByRole('button', { name: 'all steps' }).click();
  await expect(steps.getByRole('button', { name: 'hide steps' })).toHaveAttribute('aria-expanded', 'true');
  const titles = steps.locator('.step-bar__title');
  await expect(titles).toHaveText([
    'Client details',
    'Case details',
    'Financial details',
    'Supporting documents and assets',
    'Independent advice',
    'Final summary and submit',
  ]);
  const viewport = page.viewportSize()!;
  for (let i = 0; i < 6; i += 1) {
    const title = titles.nth(i);
    await expect(title).toBeVisible();
    const { x, width } = await box(title);
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x + width).toBeLessThanOrEqual(viewport.width);
    // Nothing of the name is cut: it is as wide as its text.
    expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  }
});

test('the clients list says what each client’s case is', async ({ page }) => {
  await signIn(page, demo.admin);
  await page.goto('/clients');
  const list = page.getByRole('region', { name: 'Clients' });
  const wanted = {
    'James Patel': 'Case ended: client rejected',
    'Tom Hughes': 'Case ended: provider rejected',
    'Daniel Okafor': 'Active case: submitted',
  };
  const found = new Map<string, string>();
  let shown = '';
  // Other journeys on this server add clients: the demo's may be on a later page.
  for (let n = 1; n <= 10 && found.size < 3; n += 1) {
    if (n > 1) {
      const next = page.getByRole('navigation', { name: 'Clients pages' }).getByRole('link', { name: `Page ${n}`, exact: true });
      if ((await next.count()) === 0) break;
      await next.click();
      await expect(page).toHaveURL(new RegExp(`page=${n}`));
      // The list keeps the page it shows, marked busy, until the next one is read: no row is on two pages.
      await expect(list.getByRole('link').first()).not.toHaveText(shown);
      await expect(list).not.toHaveAttribute('aria-busy', 'true');
    }
    await expect(list.getByRole('link').first()).toBeVisible();
    shown = (await list.getByRole('link').first().textContent()) ?? '';
    for (const name of Object.keys(wanted)) {
      const row = list.getByRole('link', { name: new RegExp(name) });
      if ((await row.count()) > 0) found.set(name, (await row.locator('.admin-item__cases').textContent()) ?? '');
    }
  }
  expect(Object.fromEntries(found)).toEqual(wanted);
});

// ── (12) Empty results are not empty lists ──

test('a filter that matches nothing says so, keeps the filters and offers to clear them', async ({ page }) => {
  await signIn(page, demo.lawyer);
  await page.goto('/applications');
  // The lawyer's applications (other journeys add theirs; the first page shows some).
  const rows = page.locator('.application-list a');
  await expect(rows.first()).toBeVisible();
  await page.getByLabel('Search').fill('no such client zzz');
  await page.getByLabel('Search').press('Enter');
  await expect(page).toHaveURL(/search=no\+such\+client\+zzz/);
  await expect(page.getByText('No applications match these filters.', { exact: true })).toBeVisible();
  await expect(page.getByText('More info on applications')).toHaveCount(0);
  await expect(page.getByLabel('Search')).toHaveValue('no such client zzz');
  await page.getByRole('link', { name: 'clear filters' }).click();
  await expect(page).toHaveURL(/\/applications$/);
  await expect(page.getByLabel('Search')).toHaveValue('');
  await expect(rows.first()).toBeVisible();

  await page.goto('/loans?status=closed');
  await expect(page.getByText('No loans match these filters.', { exact: true })).toBeVisible();
  await expect(page.getByText('More info on loans')).toHaveCount(0);
  await expect(page.getByLabel('Status')).toHaveValue('closed');
});

test('a page past the end says where the list ends, keeps the pager and links there', async ({ page }) => {
  await signIn(page, demo.admin);
  for (const [path, noun] of [
    ['/loans', 'loan'],
    ['/drawdowns', 'drawdown'],
    ['/firms', 'law firm'],
    ['/lawyers', 'lawyer'],
    ['/solicitors', 'solicitor'],
    ['/clients', 'client'],
  ] as const) {
    await page.goto(`${path}?page=40`);
    const message = page.getByText(/^There is nothing on page 40\. The list has \d+ \S.* on \d+ pages?\.$/);
    await expect(message, path).toBeVisible();
    await expect(message).toContainText(noun);
    await expect(page.getByText(/^More info on /)).toHaveCount(0);
    await expect(page.getByText(/ yet\.$/)).toHaveCount(0);
    const last = page.getByRole('link', { name: /^go to page \d+$/ });
    const lastPage = Number((await last.textContent())!.replace('go to page ', ''));
    // The pager stays: 'Previous' leads to the last page there is.
    await expect(page.getByRole('navigation', { name: /[Pp]ages$/ }).getByRole('link', { name: 'Previous' })).toHaveAttribute(
      'href',
      lastPage > 1 ? `${path}?page=${lastPage}` : path,
    );
    await last.click();
    await expect(page.getByText(/^There is nothing on page/)).toHaveCount(0);
  }
});

// ── (16) Smaller things ──

test('after the idle sign-out the sign-in page says why', async ({ page }) => {
  await signIn(page, demo.lawyer);
  await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
  // The last activity 30 hours and a minute ago: the next check signs out.
  await page.evaluate(() => {
    localStorage.setItem('lastActivity', String(Date.now() - (30 * 60 + 1) * 60_000));
    window.dispatchEvent(new Event('focus'));
  });
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(
    page.getByText('You were signed out after 30 hours without activity, to keep your account safe. Please sign in again.', {
      exact: true,
    }),
  ).toBeVisible();
});

test('a client whose application is submitted is told what happens next', async ({ page, request }) => {
  // A new client of the lawyer, with the application submitted.
  const lawyer = await apiToken(request, demo.lawyer);
  const email = `words-submitted-${run}@example.test`;
  const created = await call(request, lawyer, 'POST', '/applications/create', {
    journeyData: { personal: validPersonal(email, { lastName: 'Submitted' }) },
  });
  const applicationId = created.id as number;
  for (const [step, data] of Object.entries(validSteps)) {
    if (step === 'client') continue;
    await call(request, lawyer, 'POST', `/applications/update/${step}`, {
      applicationId,
      baseVersion: 0,
      journeyData: { [step]: data as Json },
    });
  }
  await call(request, lawyer, 'POST', '/applications/state/update', { applicationId, state: 'submitted' });
  let invitation: string | undefined;
  await expect
    .poll(async () => {
      invitation = (await mailTo(request, email)).flatMap((mail) => mail.links).find((l) => l.includes('/sign-up-customer/'));
      return invitation;
    })
    .toBeTruthy();
  const joined = await request.post('/api/users/sign-up/complete', {
    data: { login: email, password: 'Words-pass-2', uuid: new URL(invitation!).pathname.split('/').pop() },
  });
  expect(joined.status()).toBe(200);

  await signIn(page, email, 'Words-pass-2');
  await page.goto(`/applications/${applicationId}/details`);
  await expect(page.getByRole('region', { name: 'What happens next' })).toHaveText(
    'What happens next' +
      'Your application has been submitted. The provider will now review it, and you will receive an email once it has been accepted or rejected. There is nothing you need to do until then.',
  );
});

test('an empty result opens right below the filters, with no blank gap', async ({ page }) => {
  await signIn(page, demo.admin);
  for (const [path, words] of [
    ['/loans?search=zzz-no-match', 'No loans match these filters.'],
    ['/applications?search=zzz-no-match', 'No applications match these filters.'],
  ] as const) {
    await page.goto(path);
    const message = page.getByText(words, { exact: true });
    await expect(message).toBeVisible();
    const search = await box(page.getByLabel('Search'));
    const top = (await box(message)).y;
    // The search box, the one-line note under it, the message box's padding, then its words: no space held for rows.
    expect(top - (search.y + search.height), path).toBeLessThanOrEqual(72);
  }
  // A list without filters: the empty page's words right under the overview.
  await page.goto('/firms?page=40');
  const overview = await box(page.getByRole('region', { name: 'Overview' }));
  const message = page.getByText(/^There is nothing on page 40\.|^No law firms yet\.$/);
  await expect(message).toBeVisible();
  expect((await box(message)).y - (overview.y + overview.height)).toBeLessThanOrEqual(72);
});

test('‘Open loan’ and the other lone links are whole touch targets on a phone and a touch tablet', async ({ page }) => {
  await signIn(page, demo.admin);
  for (const width of [390, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/drawdowns');
    await page
      .getByRole('link', { name: /Drawdown \d+/ })
      .first()
      .click();
    const open = await box(page.getByRole('link', { name: 'Open loan' }));
    expect(open.height, `'Open loan' at ${width}`).toBeGreaterThanOrEqual(44);
    expect(open.width, `'Open loan' at ${width}`).toBeGreaterThanOrEqual(44);
    if (width < 992) {
      // The header's sync status, a link to /changes.
      const status = await box(page.locator('header a[href="/changes"]').filter({ visible: true }));
      expect(status.height, 'the header’s sync status').toBeGreaterThanOrEqual(44);
    }
    // Every link and button of the lists, at this width.
    for (const path of ['/applications', '/loans', '/drawdowns', '/firms', '/lawyers', '/solicitors', '/clients']) {
      await page.goto(path);
      await expect(page.locator('main a[href], main button').first()).toBeVisible();
      const small = await page.locator('main').evaluate((main) =>
        [...main.querySelectorAll<HTMLElement>('a[href], button, select, input')]
          .filter((el) => el.offsetParent !== null && !el.closest('[aria-hidden="true"]'))
          .map((el) => ({
            text: (el.textContent ?? el.getAttribute('aria-label') ?? '').trim(),
            rect: el.getBoundingClientRect(),
          }))
          .filter(({ rect }) => rect.height < 44 || rect.width < 44)
          .map(({ text, rect }) => `${text} ${Math.round(rect.width)}×${Math.round(rect.height)}`),
      );
      expect(small, `${path} at ${width}`).toEqual([]);
    }
  }
});
