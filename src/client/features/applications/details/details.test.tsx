// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { currentUrl, json, renderApp, type Handlers } from '../../../test/render-app';
import { installDomShims } from '../../../test/dom-shims';
import { clearAllTables, db } from '../../../offline/db';
import { setUploadTransport } from '../../../offline/multipart-upload';
import { stopSyncForTests } from '../../../offline/sync-engine';
import { resetEngineStateForTests } from '../../../offline/engine-state';
import { axeViolations } from '../../../ui/test-axe';
import { validAsset, validCase, validFinancial, validIndependent, validPersonal } from '../wizard/wizard-fixtures';
import { ENVELOPE_FAILED } from './review-actions';
import { NO_SIGNED_DOCUMENTS } from './signed-documents';

vi.setConfig({ testTimeout: 20_000 });
beforeAll(installDomShims);
afterEach(async () => {
  stopSyncForTests();
  resetEngineStateForTests();
  setOnline(true);
  await clearAllTables();
});

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
}

const journey = {
  personal: validPersonal,
  case: validCase,
  financial: validFinancial,
  asset: validAsset,
  independent: validIndependent,
};

const noAbilities = { editJourney: false, submit: false, transitions: [] as string[], changeDocuments: [] as string[] };
/** What the server lists for staff on an application past its review: the emails, nothing to change. */
const staffReadOnly = { ...noAbilities, readEmails: true };

function file(id: number, type: string, fileName: string) {
  return {
    id,
    name: fileName,
    url: `/applications/1/docs/${type}/download?fileId=${id}`,
    key: `files/${id}`,
    fileName,
    type,
    size: 1000,
    createdAt: '2024-02-01T10:00:00.000Z',
  };
}

function record(overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    lawyerId: 5,
    customerId: 7,
    firmId: 10,
    loanId: null,
    name: 'Nina',
    surname: 'Fairweather',
    clientEmail: 'nina@example.test',
    startDate: '2024-01-15T10:00:00.000Z',
    updatedAt: '2024-01-15T10:00:00.000Z',
    status: 'submitted',
    journey,
    journeyVersions: { personal: 1, case: 1, financial: 1, asset: 1, independent: 1 },
    loanAmount: 25_000,
    loanFacility: null,
    files: [file(31, 'formE', 'form-e.pdf')],
    envelopeId: null,
    envelopeUrl: null,
    kycAmlCheck: false,
    credidCheck: false,
    repaymentVehicle: false,
    independentAdvice: false,
    lawyer: {
      id: 5,
      firstName: 'Laura',
      surname: 'Bennett',
      login: 'laura@firm.test',
      firm: { id: 10, firmName: 'Harbour & Vale' },
    },
    abilities: noAbilities,
    ...overrides,
  };
}

const reviewAbilities = {
  ...noAbilities,
  transitions: ['providerAccepted', 'providerRejected'],
  changeDocuments: ['formE', 'secci', 'solicitorLetter'],
  checks: ['kycAmlCheck', 'credidCheck', 'repaymentVehicle'],
  // The server says 'accept' only once the three checks are ticked there.
  accept: false,
  reject: true,
  updateLoanAmount: true,
  readEmails: true,
};

const prepareAbilities = {
  ...noAbilities,
  transitions: ['esignPrepared'],
  changeDocuments: ['solicitorLetter'],
  checks: ['independentAdvice'],
  // 'prepare docusign' only once the certificate is ticked there.
  prepareEnvelope: false,
  updateLoanAmount: true,
  readEmails: true,
};

const emptyEmails = () => json(200, { items: [], total: 0, page: 1, pageSize: 3 });

function handlers(application: ReturnType<typeof record>, extra: Handlers = {}): Handlers {
  return { 'GET /applications/1': () => json(200, application), 'GET /mail/1': emptyEmails, ...extra };
}

describe('staff review screen', () => {
  it('lets staff correct the email of a client who has not joined and invite them again', async () => {
    const { user, calls } = renderApp('/applications/1/details', {
      role: 'admin',
      handlers: handlers(record({ abilities: { ...staffReadOnly, inviteClient: true } }), {
        'POST /applications/1/client-invitation': () => json(200, { email: 'nina@example.test' }),
      }),
    });
    expect(await screen.findByText(/The client has not joined yet\. The invitation was sent to/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Correct the email or send the invitation again' }));
    const field = screen.getByLabelText<HTMLInputElement>("The client's email address");
    await user.clear(field);
    await user.type(field, 'nina@example.test');
    await user.click(screen.getByRole('button', { name: 'Send the invitation' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/applications/1/client-invitation').map((call) => call.body)).toEqual([
        { email: 'nina@example.test' },
      ]),
    );
  });

  it('shows lawyer information, the five step summaries, files and emails, without actions when read-only', async () => {
    renderApp('/applications/1/details', {
      role: 'admin',
      handlers: handlers(record({ status: 'customerAccepted', abilities: staffReadOnly })),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Application details' })).toBeTruthy();
    const lawyer = await screen.findByRole('region', { name: 'Lawyer information' });
    expect(within(lawyer).getByText('Laura Bennett')).toBeTruthy();
    expect(within(lawyer).getByText('Harbour & Vale')).toBeTruthy();
    for (const title of [
      'Client details',
      'Case details',
      'Financial details',
      'Supporting documents and assets',
      'Independent advice',
    ])
      expect(screen.getByRole('region', { name: title })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Application Emails' })).toBeTruthy();
    expect(screen.getByText('£25,000.00', { selector: '.details-amount__value' })).toBeTruthy();
    expect(screen.getByText('form-e.pdf')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeTruthy();
    for (const name of [
      'accept',
      'reject',
      'prepare docusign',
      'Notify client',
      'update loan facility',
      'delete file form-e.pdf',
    ])
      expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Review' })).toBeNull();
  });

  it('tells staff when the last reminder of the wait went out; nothing when none did', async () => {
    const first = renderApp('/applications/1/details', {
      role: 'admin',
      handlers: handlers(
        record({ abilities: reviewAbilities, lastReminder: { sentAt: '2026-11-26T09:00:00.000Z', count: 2, limit: 3 } }),
      ),
    });
    const panel = await screen.findByRole('complementary', { name: 'Review' });
    expect(within(panel).getByText('Last reminder sent 26/11/2026 09:00 (2 of 3)')).toBeTruthy();
    first.unmount();
    await clearAllTables();
    renderApp('/applications/1/details', {
      role: 'admin',
      handlers: handlers(record({ abilities: reviewAbilities, lastReminder: null })),
    });
    expect(await screen.findByRole('complementary', { name: 'Review' })).toBeTruthy();
    expect(screen.queryByText(/Last reminder sent/)).toBeNull();
  });

  it("review state: each check saved on its own, 'accept' only once all three are ticked, both decisions confirmed", async () => {
    let current = record({ abilities: reviewAbilities });
    const keys: (string | null)[] = [];
    const { user, calls } = renderApp('/applications/1/details', {
      role: 'admin',
      handlers: handlers(current, {
        'GET /applications/1': () => json(200, current),
        'POST /applications/checks': async (request) => {
          keys.push(request.headers.get('Idempotency-Key'));
          const body = (await request.json()) as { check: string; status: boolean };
          current = { ...current, [body.check]: body.status };
          return json(200, current);
        },
        'POST /applications/state/update': async (request) => {
          keys.push(request.headers.get('Idempotency-Key'));
          current = { ...current, status: 'providerAccepted', abilities: prepareAbilities };
          return json(200, current);
        },
      }),
    });
    const accept = await screen.findByRole('button', { name: 'accept' });
    expect(accept.hasAttribute('disabled')).toBe(true);
    expect(await axeViolations(screen.getByRole('main'))).toEqual([]);

    await user.click(screen.getByRole('checkbox', { name: 'KYC/AML checks completed' }));
    await user.click(screen.getByRole('checkbox', { name: 'Credit Check completed' }));
    await waitFor(() => expect(calls.filter((call) => call.path === '/applications/checks')).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'accept' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Repayment Vehicle assessed' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'accept' }).hasAttribute('disabled')).toBe(false));
    expect(calls.filter((call) => call.path === '/applications/checks').map((call) => call.body)).toEqual([
      { applicationId: 1, check: 'kycAmlCheck', status: true },
      { applicationId: 1, check: 'credidCheck', status: true },
      { applicationId: 1, check: 'repaymentVehicle', status: true },
    ]);

    await user.click(screen.getByRole('button', { name: 'reject' }));
    expect(await screen.findByText('Are you sure you want to reject this application?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'accept' }));
    expect(await screen.findByText('Are you sure you want to accept this application?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The application has been accepted.')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/applications/state/update').map((call) => call.body)).toEqual([
      { applicationId: 1, state: 'providerAccepted' },
    ]);
    expect(keys.every((key) => /^[0-9a-f-]{36}$/.test(key ?? ''))).toBe(true);
    // Now in the prepare state.
    expect(await screen.findByRole('button', { name: 'prepare docusign' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'accept' })).toBeNull();
  });

  it("prepare state: 'prepare docusign' once the certificate is ticked, confirmed, and the spec's failure text under it", async () => {
    const application = record({ status: 'providerAccepted', abilities: prepareAbilities });
    const { user, calls } = renderApp('/applications/1/details', {
      role: 'admin',
      handlers: handlers(application, {
        'POST /applications/checks': () => json(200, { ...application, independentAdvice: true }),
        'POST /docusign/init': () => json(400, { error: 'envelopeFailed' }),
      }),
    });
    const prepare = await screen.findByRole('button', { name: 'prepare docusign' });
    expect(prepare.hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Certificate of independent advice uploaded' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'prepare docusign' }).hasAttribute('disabled')).toBe(false));
    await user.click(screen.getByRole('button', { name: 'prepare docusign' }));
    expect(await screen.findByText('Are you sure you want to prepare the docusign envelope?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    const failure = await screen.findByText(ENVELOPE_FAILED);
    expect(failure.closest('.details-actions')?.contains(screen.getByRole('button', { name: 'prepare docusign' }))).toBe(true);
    expect(calls.find((call) => call.path === '/docusign/init')?.body).toEqual({ applicationId: 1, state: 'esignPrepared' });
  });

  it("then 'Notify client', confirmed first", async () => {
    const application = record({
      status: 'esignPrepared',
      independentAdvice: true,
      abilities: { ...noAbilities, transitions: ['customerNotified'], notifyClient: true },
    });
    const { user, calls } = renderApp('/applications/1/details', {
      role: 'root',
      handlers: handlers(application, {
        'POST /docusign/notify': () => json(200, { ...application, status: 'customerNotified', abilities: noAbilities }),
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Notify client' }));
    expect(await screen.findByText('Are you sure you want to notify the client to sign the documents?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The client has been notified.')).toBeTruthy();
    expect(calls.find((call) => call.path === '/docusign/notify')?.body).toEqual({ applicationId: 1 });
  });

  it("'update loan facility' needs a value, asks first and sends the application's amount", async () => {
    const application = record({ abilities: reviewAbilities });
    const { user, calls } = renderApp('/applications/1/details', {
      role: 'admin',
      handlers: handlers(application, {
        'POST /loans/update': () => json(200, { applicationId: 1, loanId: null, amount: 30_000 }),
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'update loan facility' }));
    expect(await screen.findByText('Required field')).toBeTruthy();
    expect(screen.queryByText(/Are you sure/)).toBeNull();
    await user.type(screen.getByLabelText('New loan amount'), '30000');
    await user.click(screen.getByRole('button', { name: 'update loan facility' }));
    expect(await screen.findByText('Are you sure you want to update the loan amount to £30,000.00?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The loan amount has been updated.')).toBeTruthy();
    expect(calls.find((call) => call.path === '/loans/update')?.body).toEqual({ applicationId: 1, amount: 30_000 });
  });

  it('pages the emails 3 at a time with 5 page links, and saves one as a PDF', async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    const seen: string[] = [];
    const pdfQueries: string[] = [];
    const email = (id: number) => ({
      id,
      date: '2024-03-04T09:30:00.000Z',
      userType: 'customer',
      subject: `Subject ${id}`,
      to: 'nina@example.test',
      from: 'no-reply@portal.test',
    });
    const { user, router } = renderApp('/applications/1/details', {
      role: 'admin',
      handlers: handlers(record({ abilities: staffReadOnly }), {
        'GET /mail/1': (request) => {
          const page = Number(new URL(request.url).searchParams.get('page'));
          seen.push(new URL(request.url).search);
          return json(200, {
            items: [email(page * 10 + 1), email(page * 10 + 2), email(page * 10 + 3)],
            total: 20,
            page,
            pageSize: 3,
          });
        },
        'GET /pdf-generator/from-email': (request) => {
          pdfQueries.push(new URL(request.url).search);
          return json(200, { url: '/api/files/email-pdf', fileName: 'email.pdf' });
        },
      }),
    });
    const emails = await screen.findByRole('region', { name: 'Application Emails' });
    expect(await within(emails).findByText('Subject 11')).toBeTruthy();
    expect(new URLSearchParams(seen[0]).get('pageSize')).toBe('3');
    const pages = within(emails).getByRole('navigation', { name: 'Pages of emails' });
    expect(within(pages).getAllByRole('link', { name: /^Page \d$/ })).toHaveLength(5);
    await user.click(within(pages).getByRole('link', { name: 'Page 2' }));
    expect(await within(emails).findByText('Subject 21')).toBeTruthy();
    expect(currentUrl(router)).toBe('/applications/1/details?emails=2');
    await user.click(within(emails).getByRole('button', { name: 'download PDF of Subject 22' }));
    await waitFor(() => expect(clicked).toEqual(['/api/files/email-pdf']));
    const query = new URLSearchParams(pdfQueries[0]);
    expect(Object.fromEntries(query)).toMatchObject({
      applicationId: '1',
      mailId: '22',
      subject: 'Subject 22',
      userType: 'customer',
      date: '2024-03-04',
      to: 'nina@example.test',
      from: 'no-reply@portal.test',
    });
  });

  it('uploads a document in the review state with its uploading state, and deletes a file after the confirmation', async () => {
    let release: () => void = () => undefined;
    const uploaded: string[] = [];
    setUploadTransport(async ({ form }) => {
      await new Promise<void>((resolve) => (release = resolve));
      uploaded.push(`${String(form.get('type'))} ${String(form.get('fileName'))}`);
      return { status: 201, body: { id: 90, key: 'files/90' }, retryAfter: null };
    });
    const { user, calls } = renderApp('/applications/1/details', {
      role: 'admin',
      handlers: handlers(record({ abilities: reviewAbilities }), {
        'POST /applications/file/delete': () => json(204),
      }),
    });
    const files = await screen.findByRole('region', { name: 'Files' });
    await user.selectOptions(within(files).getByLabelText('Document type'), 'secci');
    const input = files.querySelector<HTMLInputElement>('input[type=file]')!;
    await user.upload(input, new File(['%PDF-1.4 test'], 'secci.pdf', { type: 'application/pdf' }));
    expect(await within(files).findByText('Uploading')).toBeTruthy();
    release();
    expect(await within(files).findByText('Uploaded')).toBeTruthy();
    expect(uploaded).toEqual(['secci secci.pdf']);

    await user.click(within(files).getByRole('button', { name: 'delete file form-e.pdf' }));
    expect(await screen.findByText('Are you sure you want to delete this file?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/applications/file/delete')?.body).toEqual({ fileKey: 'files/31' }),
    );
    await waitFor(() => expect(within(files).queryByText('form-e.pdf')).toBeNull());
  });

  it('a decision made offline waits on the device, and one overtaken meanwhile is refused on the page with nothing lost', async () => {
    let online = false;
    const application = record({
      kycAmlCheck: true,
      credidCheck: true,
      repaymentVehicle: true,
      abilities: { ...reviewAbilities, accept: true },
    });
    const keys: (string | null)[] = [];
    const { user } = renderApp('/applications/1/details', {
      role: 'admin',
      handlers: handlers(application, {
        'POST /applications/state/update': (request) => {
          if (!online) throw new TypeError('Failed to fetch');
          keys.push(request.headers.get('Idempotency-Key'));
          return json(409, { error: 'conflict' });
        },
      }),
    });
    await screen.findByRole('button', { name: 'accept' });
    setOnline(false);
    await user.click(screen.getByRole('button', { name: 'accept' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(
      await screen.findByText('Your decision ‘accept’ is kept on this device and will be sent once you are back online.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'accept' })).toBeNull();
    expect(await screen.findByText('1 change waiting for a connection')).toBeTruthy();

    online = true;
    setOnline(true);
    window.dispatchEvent(new Event('online'));
    const refusal = await screen.findByText(/Your decision ‘accept’ was not made/);
    expect(refusal.textContent).toContain('This was changed by someone else meanwhile.');
    expect(keys).toHaveLength(1);
    expect(await screen.findByText('Needs your attention')).toBeTruthy();
    const kept = await db.drafts.toArray();
    expect(kept).toMatchObject([{ key: 'application-decision:1', status: 'rejected', value: { decision: 'accept' } }]);
    await user.click(screen.getByRole('button', { name: 'dismiss' }));
    await waitFor(() => expect(screen.queryByText(/was not made/)).toBeNull());
    expect(keys).toHaveLength(1);
  });

  it('opens offline as a saved copy with its time', async () => {
    const first = renderApp('/applications/1/details', { role: 'admin', handlers: handlers(record()) });
    await screen.findByRole('region', { name: 'Lawyer information' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.unmount();
    renderApp('/applications/1/details', {
      role: 'admin',
      handlers: {
        'GET /applications/1': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    expect(await screen.findByRole('region', { name: 'Lawyer information' })).toBeTruthy();
    expect(screen.getByText(/^Saved copy from \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeTruthy();
  });
});

describe("lawyer's and client's view", () => {
  it('sends a started application back to /applications', async () => {
    const { router } = renderApp('/applications/1/details', {
      role: 'lawyer',
      handlers: {
        ...handlers(record({ status: 'incomplete' })),
        'GET /applications': () => json(200, { items: [], total: 0, page: 1, pageSize: 10 }),
      },
    });
    await waitFor(() => expect(currentUrl(router)).toBe('/applications'));
  });

  it("shows the lawyer the status, figures and files, without the staff's sections or the client's actions", async () => {
    renderApp('/applications/1/details', { role: 'lawyer', handlers: handlers(record({ status: 'providerAccepted' })) });
    expect(await screen.findByText('provider accepted')).toBeTruthy();
    expect(screen.getByText('A-000001')).toBeTruthy();
    expect(screen.getByText('N. Fairweather')).toBeTruthy();
    expect(screen.getByText('form-e.pdf')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Lawyer information' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Application Emails' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'view documents and get independent advice' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'i no longer wish to proceed' })).toBeNull();
    expect(await axeViolations(screen.getByRole('main'))).toEqual([]);
  });

  it('shows the client the contract documents once accepted, and ends their session when they no longer wish to proceed', async () => {
    const application = record({
      status: 'providerAccepted',
      files: [file(31, 'formE', 'form-e.pdf'), file(40, 'loanAgreement', 'credit-agreement.pdf')],
      abilities: { ...noAbilities, transitions: ['customerApproved', 'customerRejected'], withdraw: true },
    });
    const { user, calls, router } = renderApp('/applications/1/details', {
      role: 'customer',
      handlers: handlers(application, {
        'GET /applications/1/docs': () =>
          json(200, {
            documents: [
              { type: 'formE', state: 'received', files: [file(31, 'formE', 'form-e.pdf')] },
              { type: 'loanAgreement', state: 'pending', files: [file(40, 'loanAgreement', 'credit-agreement.pdf')] },
            ],
          }),
        'POST /applications/state/update': () => json(200, { ...application, status: 'customerRejected' }),
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'view documents and get independent advice' }));
    const documents = await screen.findByRole('region', { name: 'Your documents' });
    expect(await within(documents).findByText('credit-agreement.pdf')).toBeTruthy();
    expect(within(documents).getByText('Credit Agreement')).toBeTruthy();
    expect(within(documents).queryByText('form-e.pdf')).toBeNull();
    expect(screen.queryByRole('button', { name: 'sign documents' })).toBeNull();
    // No menu for the client.
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'i no longer wish to proceed' }));
    expect(await screen.findByText('Are you sure you no longer wish to proceed?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/sign-in'));
    expect(calls.find((call) => call.path === '/applications/state/update')?.body).toEqual({
      applicationId: 1,
      state: 'customerRejected',
    });
    expect(localStorage.getItem('token')).toBeNull();
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/auth')).toBe(true);
  });

  it("'sign documents' once notified opens the signing address; offline it says signing needs a connection", async () => {
    const application = record({
      status: 'customerNotified',
      abilities: { ...noAbilities, transitions: ['customerAccepted', 'customerRejected'], sign: true, withdraw: true },
    });
    const { user, calls, router } = renderApp('/applications/1/details', {
      role: 'customer',
      handlers: handlers(application, { 'POST /docusign/sign': () => json(200, { envelopUrl: '/esign/abc123' }) }),
    });
    const sign = await screen.findByRole('button', { name: 'sign documents' });
    setOnline(false);
    await user.click(sign);
    expect(await screen.findByText('Signing needs a connection. Please try again once you are back online.')).toBeTruthy();
    expect(calls.some((call) => call.path === '/docusign/sign')).toBe(false);
    setOnline(true);
    await user.click(screen.getByRole('button', { name: 'sign documents' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/esign/abc123'));
    expect(calls.find((call) => call.path === '/docusign/sign')?.body).toEqual({ applicationId: 1 });
  });

  it('offers no documents before they are made (decision 446)', async () => {
    const withdraw = { ...noAbilities, transitions: ['customerRejected'], withdraw: true };
    // Accepted, but the contract documents are not made yet: no button that would lead to nothing.
    renderApp('/applications/1/details', {
      role: 'customer',
      handlers: handlers(record({ status: 'providerAccepted', files: [], abilities: withdraw })),
    });
    expect(await screen.findByText('No files yet.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'i no longer wish to proceed' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'view documents and get independent advice' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Your documents' })).toBeNull();
    expect(screen.getByRole('region', { name: 'What happens next' }).textContent).toContain(
      'is preparing your contract documents',
    );
  });

  it('offers the documents to read, not advice to get, once the certificate of advice is in (decision 446)', async () => {
    const withdraw = { ...noAbilities, transitions: ['customerRejected'], withdraw: true };
    const { user } = renderApp('/applications/1/details', {
      role: 'customer',
      handlers: handlers(
        record({
          status: 'esignPrepared',
          independentAdvice: true,
          files: [file(40, 'loanAgreement', 'credit-agreement.pdf')],
          abilities: withdraw,
        }),
        {
          'GET /applications/1/docs': () =>
            json(200, {
              documents: [
                { type: 'loanAgreement', state: 'pending', files: [file(40, 'loanAgreement', 'credit-agreement.pdf')] },
              ],
            }),
        },
      ),
    });
    await user.click(await screen.findByRole('button', { name: 'View documents' }));
    expect(screen.queryByRole('button', { name: 'view documents and get independent advice' })).toBeNull();
    expect(
      await screen.findByText(
        'Your certificate of independent advice has been received. These are the documents you will be asked to sign.',
      ),
    ).toBeTruthy();
  });

  it("offers 'Download signed docs' once signing made the loan", async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    const { user } = renderApp('/applications/1/details', {
      role: 'customer',
      handlers: handlers(
        record({
          status: 'customerAccepted',
          loanId: 3,
          envelopeId: 'env-1',
          abilities: { ...noAbilities, downloadSignedDocuments: true },
        }),
        {
          'GET /docusign/signedDocs': () =>
            json(200, { envelopId: 'env-1', documents: [file(50, 'loanAgreement', 'credit-agreement-signed.pdf')] }),
          'GET /applications/1/docs/loanAgreement/download': () =>
            json(200, { url: '/api/files/signed', fileName: 'signed.pdf' }),
        },
      ),
    });
    await user.click(await screen.findByRole('button', { name: 'Download signed docs' }));
    await user.click(await screen.findByRole('button', { name: 'download credit-agreement-signed.pdf' }));
    await waitFor(() => expect(clicked).toEqual(['/api/files/signed']));
  });

  it("gives the lawyer 'Download signed docs' too (decision 449)", async () => {
    const { user, calls } = renderApp('/applications/1/details', {
      role: 'lawyer',
      handlers: handlers(
        record({
          status: 'customerAccepted',
          loanId: 3,
          envelopeId: 'env-1',
          abilities: { ...noAbilities, downloadSignedDocuments: true },
        }),
        {
          'GET /docusign/signedDocs': () =>
            json(200, { envelopId: 'env-1', documents: [file(50, 'loanAgreement', 'credit-agreement-signed.pdf')] }),
        },
      ),
    });
    await user.click(await screen.findByRole('button', { name: 'Download signed docs' }));
    expect(await screen.findByText('credit-agreement-signed.pdf')).toBeTruthy();
    expect(calls.some((call) => call.path === '/docusign/signedDocs')).toBe(true);
  });

  it('offers nothing for a loan made without signing here (decision 449)', async () => {
    renderApp('/applications/1/details', {
      role: 'customer',
      handlers: handlers(
        record({ status: 'customerAccepted', loanId: 3, abilities: { ...noAbilities, downloadSignedDocuments: false } }),
      ),
    });
    expect(await screen.findByRole('region', { name: 'What happens next' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download signed docs' })).toBeNull();
  });

  it('says so when the server has no signed documents after all', async () => {
    const { user } = renderApp('/applications/1/details', {
      role: 'customer',
      handlers: handlers(
        record({
          status: 'customerAccepted',
          loanId: 3,
          envelopeId: 'env-1',
          abilities: { ...noAbilities, downloadSignedDocuments: true },
        }),
        { 'GET /docusign/signedDocs': () => json(404, { error: 'notFound' }) },
      ),
    });
    await user.click(await screen.findByRole('button', { name: 'Download signed docs' }));
    expect(await screen.findByText(NO_SIGNED_DOCUMENTS)).toBeTruthy();
  });

  it('shows the loan’s current facility once signed, not the draft amount, with a raise waiting for the signature', async () => {
    const signed = record({
      status: 'customerAccepted',
      loanId: 3,
      loanAmount: 25_000,
      loanFacility: { loanId: 3, amount: 30_000, pendingAmount: 35_000 },
    });
    renderApp('/applications/1/details', {
      role: 'lawyer',
      handlers: handlers(signed, { 'GET /docusign/signedDocs': () => json(404, { error: 'notFound' }) }),
    });
    const label = await screen.findByText('Loan amount');
    expect(label.parentElement?.textContent).toBe('Loan amount£30,000.00');
    expect(screen.getByText('Pending variation').parentElement?.textContent).toBe(
      'Pending variation£35,000.00, waiting for the client’s signature',
    );
    expect(screen.queryByText('£25,000.00')).toBeNull();
  });
});
