// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { currentUrl, json, renderApp, type Handlers } from '../../test/render-app';
import { installDomShims } from '../../test/dom-shims';
import { clearAllTables, db, draftRowId } from '../../offline/db';
import { writeDraft } from '../../offline/drafts';
import { stopSyncForTests } from '../../offline/sync-engine';
import { resetEngineStateForTests } from '../../offline/engine-state';
import { requestDraftKey } from './offline/request-drawdown-mutation';
import { editDraftKey } from './offline/update-drawdown-mutation';
import { loanStateKey } from './offline/change-loan-state-mutation';
import { emptyRequest, type RequestValues } from './drawdown-request/request-values';
import { axeViolations } from '../../ui/test-axe';
import { LEAVE_UNSAVED_MESSAGE } from '../../ui/unsaved-changes';

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

const day = 86_400_000;

function loan(id: number, extra: Record<string, unknown> = {}): { id: number } & Record<string, unknown> {
  return {
    id,
    applicationId: 100 + id,
    date: new Date().toISOString(),
    amount: 50_000,
    pendingAmount: null,
    totalDrawdowns: 12_500.5,
    creditAvailable: 37_499.5,
    state: 'open',
    clientName: 'Chris',
    clientSurname: `Walker${id}`,
    caseRef: `CR-${id}`,
    abilities: { transitions: [] as string[], requestDrawdown: false, requestBalance: false, updateAmount: false },
    ...extra,
  };
}

function list(items: unknown[], total = items.length) {
  return () => json(200, { items, total, page: 1, pageSize: 10 });
}

const emptyDrawdowns = list([]);

function loanHandlers(record: { id: number }, extra: Handlers = {}): Handlers {
  return {
    [`GET /loans/${record.id}`]: () => json(200, record),
    [`GET /loans/${record.id}/facility-history`]: () => json(200, { items: [] }),
    'GET /drawdowns': emptyDrawdowns,
    ...extra,
  };
}

const filled: RequestValues = {
  ...emptyRequest(),
  amount: '1500.00',
  invoiceNumber: 'INV-204',
  stageOfCase: 'Disclosure',
  materialChanges: false,
  nextHearingDate: '14/03/2040',
  finalOrderDate: '30/09/2040',
  reaplyAssets: 'Family home',
  expectedRepaymentDate: '31/12/2040',
  declarations: {
    noMaterialChangeLegal: true,
    noMaterialChangeFinancial: true,
    noMaterialChangeMaterial: true,
    settlementSufficient: true,
    currentLoanSufficient: true,
    solicitorNotified: false,
    obligationsCompiled: true,
  },
  declarationDetails: { ...emptyRequest().declarationDetails, solicitorNotified: 'Told by phone, letter follows' },
};

describe('loans list', () => {
  it('groups loans by date, links each to its page and shows the overview with extract database to staff', async () => {
    renderApp('/loans', {
      role: 'admin',
      handlers: {
        'GET /loans': list([loan(7), loan(8, { date: new Date(Date.now() - 3 * day).toISOString(), state: 'blocked' })]),
        'GET /loans/aggregate': () =>
          json(200, { loansSum: 1_234_567.8, totalDrawdowns: 234_567.3, loansCount: 2, dateCustomerAccepted: null }),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Request Drawdown' })).toBeTruthy();
    const today = await screen.findByRole('region', { name: 'Today' });
    const link = within(today).getByRole('link', { name: /Chris Walker7/ });
    expect(link.getAttribute('href')).toBe('/loans/7');
    expect(within(link).getByText('LFAMA00007')).toBeTruthy();
    expect(within(link).getByText('£37,499.50')).toBeTruthy();
    expect(within(link).getByText('open').className).toContain('badge--loan-open');
    const week = screen.getByRole('region', { name: 'Last 7 days' });
    expect(within(week).getByText('blocked').className).toContain('badge--loan-blocked');
    const overview = await screen.findByRole('region', { name: 'All loans overview' });
    await waitFor(() => expect(within(overview).getByText('£1,234,567.80')).toBeTruthy());
    expect(within(overview).getByText('£1,000,000.50')).toBeTruthy();
    expect(within(overview).getByText('2')).toBeTruthy();
    expect(within(overview).getByText('£234,567.30')).toBeTruthy();
    expect(within(overview).getByRole('button', { name: 'extract database' })).toBeTruthy();
  });

  it("titles the list 'Loans' for a lawyer, without the overview, and shows the empty state", async () => {
    const { calls } = renderApp('/loans', { role: 'lawyer', handlers: { 'GET /loans': list([]) } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Loans' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'More info on loans' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'All loans overview' })).toBeNull();
    expect(calls.some((call) => call.path === '/loans/aggregate')).toBe(false);
  });

  it('shows the overview without extract database to the client', async () => {
    renderApp('/loans', {
      role: 'customer',
      handlers: {
        'GET /loans': list([loan(1)]),
        'GET /loans/aggregate': () =>
          json(200, { loansSum: 50_000, totalDrawdowns: 0, loansCount: 1, dateCustomerAccepted: null }),
      },
    });
    const overview = await screen.findByRole('region', { name: 'All loans overview' });
    expect(within(overview).queryByRole('button', { name: 'extract database' })).toBeNull();
  });

  it('keeps status, search and page in the address and sends them to the server', async () => {
    const seen: string[] = [];
    const { user, router } = renderApp('/loans?page=2', {
      role: 'lawyer',
      handlers: {
        'GET /loans': (request) => {
          seen.push(new URL(request.url).search);
          return json(200, { items: [loan(1)], total: 25, page: 2, pageSize: 10 });
        },
      },
    });
    await screen.findByText('Chris Walker1');
    expect(new URLSearchParams(seen.at(-1)).get('page')).toBe('2');
    await user.selectOptions(screen.getByLabelText('Status'), 'blocked');
    await waitFor(() => expect(currentUrl(router)).toBe('/loans?status=blocked'));
    await user.type(screen.getByLabelText('Search'), 'walker');
    await waitFor(() => expect(currentUrl(router)).toBe('/loans?status=blocked&search=walker'));
    await waitFor(() => expect(new URLSearchParams(seen.at(-1)).get('search')).toBe('walker'));
    expect(new URLSearchParams(seen.at(-1)).get('status')).toBe('blocked');
  });

  it("says 'Unhandled error. Please contact an administrator' when the extract fails", async () => {
    const { user, calls } = renderApp('/loans', {
      role: 'admin',
      handlers: {
        'GET /loans': list([]),
        'GET /loans/aggregate': () => json(200, { loansSum: 0, totalDrawdowns: 0, loansCount: 0, dateCustomerAccepted: null }),
        'GET /common/dump': () => json(500, { error: 'unhandled' }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'extract database' }));
    expect(await screen.findByText('Unhandled error. Please contact an administrator')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/common/dump')).toHaveLength(1);
  });

  it('opens the extract as a download', async () => {
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    const { user } = renderApp('/loans', {
      role: 'root',
      handlers: {
        'GET /loans': list([]),
        'GET /loans/aggregate': () => json(200, { loansSum: 0, totalDrawdowns: 0, loansCount: 0, dateCustomerAccepted: null }),
        'GET /common/dump': () => json(200, { url: '/api/files/abc', fileName: 'portal-extract.zip' }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'extract database' }));
    await waitFor(() => expect(clicked).toEqual([{ href: '/api/files/abc', download: 'portal-extract.zip' }]));
  });
});

describe('loan page', () => {
  it("shows the loan titled by its status, with its figures, reference, status colour and the loan's drawdowns", async () => {
    const record = loan(3, { state: 'blocked' });
    renderApp('/loans/3', {
      role: 'lawyer',
      handlers: loanHandlers(record, {
        'GET /drawdowns': list([
          {
            id: 44,
            loanId: 3,
            applicationId: 103,
            firstName: 'Chris',
            lastName: 'Walker',
            caseRef: 'CR-3',
            status: 'providerApproved',
            amount: 2500,
            date: new Date().toISOString(),
            loanAmount: 50_000,
            totalDrawdowns: 12_500.5,
            totalDrawdownsAmount: 12_500.5,
          },
        ]),
      }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Blocked Loan' })).toBeTruthy();
    expect(document.title).toMatch(/^Blocked Loan \|/);
    expect(screen.getByText('This loan is blocked, so no drawdown can be requested until it is unblocked.')).toBeTruthy();
    expect(await screen.findByText('£37,499.50')).toBeTruthy();
    expect(screen.getByText('£50,000.00')).toBeTruthy();
    expect(screen.getByText('£12,500.50')).toBeTruthy();
    expect(screen.getByText('LFAMA00003')).toBeTruthy();
    expect(screen.getByText('blocked').className).toContain('badge--loan-blocked');
    const drawdown = await screen.findByRole('link', { name: /Drawdown 44/ });
    expect(drawdown.getAttribute('href')).toBe('/drawdowns/44');
    expect(within(drawdown).getByText('pending client approval')).toBeTruthy();
    // Nothing the record does not offer.
    expect(within(screen.getByRole('main')).queryByRole('button')).toBeNull();
  });

  it.each([
    ['open', 0, 'Open Loan', 'There is no credit left on this loan, so no more drawdowns can be requested.'],
    ['paid', 100, 'Paid Loan', 'This loan is paid, so no more drawdowns can be requested.'],
    ['closed', 100, 'Closed Loan', 'This loan is closed, so no more drawdowns can be requested.'],
  ])(
    'tells the lawyer why a %s loan with £%d left takes no request, in its title and a notice',
    async (state, left, title, notice) => {
      const record = loan(8, { state, creditAvailable: left, totalDrawdowns: 50_000 - left });
      renderApp('/loans/8', { role: 'lawyer', handlers: loanHandlers(record) });
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
      expect(await screen.findByText(notice)).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'request drawdown' })).toBeNull();
    },
  );

  it('tells the lawyer the signed credit is drawn while a variation waits, and keeps a request refused for its amount in words', async () => {
    await writeDraft(1, requestDraftKey(11), filled);
    await db.drafts.update(draftRowId(1, requestDraftKey(11)), {
      status: 'rejected',
      serverCodes: { amount: 'exceedsCredit' },
      serverError: 'validation',
    });
    const record = loan(11, { amount: 30_000, pendingAmount: 35_000, totalDrawdowns: 30_000, creditAvailable: 0 });
    renderApp('/loans/11', { role: 'lawyer', handlers: loanHandlers(record) });
    expect(
      await screen.findByText(
        'All the credit your client has signed for is drawn, so no more drawdowns can be requested until they sign the variation.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('There is no credit left on this loan, so no more drawdowns can be requested.')).toBeNull();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      "Your drawdown request for £1,500.00 was not sent: The drawdown amount can't exceed available credit. " +
        'It is kept on this device and comes back here once the loan takes requests again.discard',
    );
    expect(screen.queryByRole('button', { name: 'request drawdown' })).toBeNull();
  });

  it('says once that the loan has no drawdowns yet', async () => {
    renderApp('/loans/9', { role: 'admin', handlers: loanHandlers(loan(9)) });
    expect(await screen.findByText('No drawdowns yet.')).toBeTruthy();
    expect(screen.getAllByText('No drawdowns yet.')).toHaveLength(1);
  });

  it('says nothing of requests to those who never make them', async () => {
    renderApp('/loans/9', { role: 'admin', handlers: loanHandlers(loan(9, { state: 'blocked' })) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Blocked Loan' })).toBeTruthy();
    expect(screen.queryByText(/no drawdown can be requested/)).toBeNull();
  });

  it('keeps a request refused by the loan’s block on the device, says why, and discards it only when asked', async () => {
    await writeDraft(1, requestDraftKey(10), filled);
    await db.drafts.update(draftRowId(1, requestDraftKey(10)), {
      status: 'rejected',
      serverCodes: {},
      serverError: 'loanNotOpen',
    });
    const { user } = renderApp('/loans/10', { role: 'lawyer', handlers: loanHandlers(loan(10, { state: 'blocked' })) });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your drawdown request for £1,500.00 was not sent:');
    expect(alert.textContent).toContain('This loan is not open, so this cannot be done now.');
    expect(alert.textContent).toContain('It is kept on this device');
    expect(await axeViolations(screen.getByRole('main'))).toEqual([]);
    await user.click(within(alert).getByRole('button', { name: 'discard' }));
    await user.click(await screen.findByRole('button', { name: 'No' }));
    expect(await db.drafts.get(draftRowId(1, requestDraftKey(10)))).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: 'discard' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(async () => expect(await db.drafts.get(draftRowId(1, requestDraftKey(10)))).toBeUndefined());
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('offers exactly the actions the record lists', async () => {
    const staff = loan(4, { abilities: { transitions: ['blocked', 'paid', 'closed'], updateAmount: true } });
    const view = renderApp('/loans/4', { role: 'admin', handlers: loanHandlers(staff) });
    expect(await screen.findByRole('button', { name: 'block loan' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'set status to paid' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'close loan' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'update loan facility' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'request loan balance' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'request drawdown' })).toBeNull();
    view.unmount();
    localStorage.clear();

    const client = loan(4, { abilities: { transitions: ['blocked'] } });
    renderApp('/loans/4', { role: 'customer', handlers: loanHandlers(client) });
    expect(await screen.findByRole('button', { name: 'block loan' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'set status to paid' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'update loan facility' })).toBeNull();
  });

  it('blocks the loan after the confirmation, through the outbox with an Idempotency-Key', async () => {
    const record = loan(5, { abilities: { transitions: ['blocked', 'paid'] } });
    let current = record;
    const keys: (string | null)[] = [];
    const { user, calls } = renderApp('/loans/5', {
      role: 'admin',
      handlers: {
        ...loanHandlers(record),
        'GET /loans/5': () => json(200, current),
        'POST /loans/5/state': (request) => {
          keys.push(request.headers.get('Idempotency-Key'));
          current = { ...record, state: 'blocked', abilities: { transitions: ['open', 'paid', 'closed'] } };
          return json(200, current);
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'block loan' }));
    expect(await screen.findByText('Are you sure you want to block loan?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(calls.some((call) => call.path === '/loans/5/state')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'block loan' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('button', { name: 'unblock loan' })).toBeTruthy();
    expect(calls.filter((call) => call.path === '/loans/5/state').map((call) => call.body)).toEqual([{ state: 'blocked' }]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);

    await user.click(screen.getByRole('button', { name: 'set status to paid' }));
    expect(await screen.findByText('Are you sure you want to set loan status to paid?')).toBeTruthy();
  });

  it('a block made offline waits on the device, no second change meanwhile, and is sent once on reconnect', async () => {
    const record = loan(8, { abilities: { transitions: ['blocked'] } });
    let online = false;
    const keys: (string | null)[] = [];
    const { user } = renderApp('/loans/8', {
      role: 'customer',
      handlers: loanHandlers(record, {
        'POST /loans/8/state': (request) => {
          if (!online) throw new TypeError('Failed to fetch');
          keys.push(request.headers.get('Idempotency-Key'));
          return json(200, { ...record, state: 'blocked', abilities: { transitions: [] } });
        },
      }),
    });
    setOnline(false);
    await user.click(await screen.findByRole('button', { name: 'block loan' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(
      await screen.findByText('Your change ‘block loan’ is kept on this device and will be sent once you are back online.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'block loan' })).toBeNull();
    expect(await screen.findByText('1 change waiting for a connection')).toBeTruthy();
    online = true;
    setOnline(true);
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(keys).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText(/is kept on this device/)).toBeNull());
    expect(await db.drafts.count()).toBe(0);
  });

  it('flags a loan with a refused change in the loans list (decision 342)', async () => {
    await db.drafts.put({
      id: `1|${loanStateKey(8)}`,
      userId: 1,
      key: loanStateKey(8),
      value: { state: 'blocked' },
      baseVersion: 0,
      updatedAt: Date.now(),
      status: 'rejected',
      serverCodes: {},
      serverError: 'conflict',
    });
    renderApp('/loans', {
      role: 'admin',
      handlers: { 'GET /loans': list([loan(7), loan(8)]), 'GET /loans/aggregate': () => json(200, {}) },
    });
    const flagged = await screen.findByRole('link', { name: /Chris Walker8/ });
    await waitFor(() => expect(flagged.textContent).toContain('Needs your attention'));
    expect(screen.getByRole('link', { name: /Chris Walker7/ }).textContent).not.toContain('Needs your attention');
  });

  it('says so when someone else changed the loan first, and counts it until read', async () => {
    const record = loan(6, { abilities: { transitions: ['paid'] } });
    const { user } = renderApp('/loans/6', {
      role: 'admin',
      handlers: loanHandlers(record, { 'POST /loans/6/state': () => json(409, { error: 'conflict' }) }),
    });
    await user.click(await screen.findByRole('button', { name: 'set status to paid' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    const alert = await screen.findByText(/Your change ‘set status to paid’ was not made/);
    expect(alert.textContent).toContain('This was changed by someone else meanwhile.');
    expect(await screen.findByText('Needs your attention')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'dismiss' }));
    await waitFor(() => expect(screen.queryByText(/was not made/)).toBeNull());
    expect(await db.drafts.count()).toBe(0);
    expect(loanStateKey(6)).toBe('loan-state:6');
  });

  it('refuses a loan amount below the total drawn and asks before updating', async () => {
    const record = loan(9, { abilities: { transitions: [], updateAmount: true } });
    const { user, calls } = renderApp('/loans/9', {
      role: 'admin',
      handlers: loanHandlers(record, {
        'POST /loans/update': () => json(200, { applicationId: 109, loanId: 9, amount: 45_000, pendingAmount: null }),
      }),
    });
    const button = await screen.findByRole('button', { name: 'update loan facility' });
    expect(button.hasAttribute('disabled')).toBe(true);
    const input = screen.getByLabelText('New credit offered');
    await user.type(input, '12000');
    expect(await screen.findByText('Is less than already drawdowned amount')).toBeTruthy();
    expect(button.hasAttribute('disabled')).toBe(true);
    await user.clear(input);
    // Lower than the signed £50,000: no signature needed, the spec's question as it is.
    await user.type(input, '45000');
    expect(screen.queryByText('Is less than already drawdowned amount')).toBeNull();
    await user.click(button);
    expect(await screen.findByText('Are you sure you want to update the loan amount to £45,000.00?')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/loans/update')?.body).toEqual({
        loanId: 9,
        applicationId: 109,
        amount: 45_000,
      }),
    );
    expect(await screen.findByText('The loan amount has been updated.')).toBeTruthy();
  });

  it("requests the loan balance after the confirmation: 'Successfully requested'", async () => {
    const record = loan(2, { abilities: { transitions: [], requestBalance: true } });
    const { user } = renderApp('/loans/2', {
      role: 'lawyer',
      handlers: loanHandlers(record, {
        'GET /loans/2/balance': () => json(200, { loanId: 2, requestedAt: new Date().toISOString() }),
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'request loan balance' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Successfully requested')).toBeTruthy();
    expect(screen.getByText('The administrator will contact you')).toBeTruthy();
  });

  it('opens offline as a saved copy with its time', async () => {
    const record = loan(12);
    const first = renderApp('/loans/12', { role: 'customer', handlers: loanHandlers(record) });
    await screen.findByText('LFAMA00012');
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.unmount();
    renderApp('/loans/12', {
      role: 'customer',
      handlers: {
        'GET /loans/12': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    expect(await screen.findByText('LFAMA00012')).toBeTruthy();
    expect(screen.getByText(/^Saved copy from \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeTruthy();
  });
});

describe('drawdown request form', () => {
  const requestable = loan(1, { abilities: { transitions: [], requestDrawdown: true, requestBalance: true } });

  it('shows every message of the spec', async () => {
    const { user, calls } = renderApp('/loans/1', { role: 'lawyer', handlers: loanHandlers(requestable) });
    const submit = await screen.findByRole('button', { name: 'request drawdown' });
    await user.click(submit);
    // The amount, six text fields and the material-changes question.
    expect((await screen.findAllByText('Required field')).length).toBe(8);
    expect(screen.getAllByText('Required Field')).toHaveLength(7);
    const amount = screen.getByLabelText('Drawdown amount');
    await user.type(amount, '0');
    expect(await screen.findByText('The number must be greater than 0')).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, '37499.51');
    expect(await screen.findByText("The drawdown amount can't exceed available credit")).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, '37499.50');
    await waitFor(() => expect(screen.queryByText("The drawdown amount can't exceed available credit")).toBeNull());
    // Material changes: Yes asks for the details.
    await user.click(screen.getByRole('radio', { name: 'Yes' }));
    expect(await screen.findByLabelText('Details of the material changes')).toBeTruthy();
    // A False statement asks for details.
    const statement = screen.getByRole('radiogroup', { name: /independent solicitor has been told/ });
    await user.click(within(statement).getByRole('radio', { name: 'False' }));
    expect(screen.getAllByLabelText('Please give details')).toHaveLength(1);
    expect(await axeViolations(screen.getByRole('main'))).toEqual([]);
    expect(calls.some((call) => call.path === '/drawdowns' && call.method === 'POST')).toBe(false);
  });

  it('restores the draft after a reload and sends it once, as numbers and booleans, then opens the drawdown', async () => {
    await writeDraft(1, requestDraftKey(1), filled);
    const posts: { key: string | null; body: unknown }[] = [];
    const { user, router } = renderApp('/loans/1', {
      role: 'lawyer',
      handlers: loanHandlers(requestable, {
        'POST /drawdowns': async (request) => {
          posts.push({ key: request.headers.get('Idempotency-Key'), body: await request.json() });
          return json(201, { id: 77 });
        },
        'GET /drawdowns/77': () => json(404, { error: 'notFound' }),
      }),
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Invoice number').value).toBe('INV-204'));
    expect(screen.getByLabelText<HTMLTextAreaElement>('Please give details').value).toBe('Told by phone, letter follows');
    await user.click(screen.getByRole('button', { name: 'request drawdown' }));
    expect(await screen.findByText('Are you sure you want to request this drawdown?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/drawdowns/77'));
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({
      applicationId: 101,
      amount: 1500,
      invoiceNumber: 'INV-204',
      stageOfCase: 'Disclosure',
      materialChanges: false,
      nextHearingDate: '14/03/2040',
      finalOrderDate: '30/09/2040',
      reaplyAssets: 'Family home',
      expectedRepaymentDate: '31/12/2040',
      lawyerDeclarations: {
        noMaterialChangeLegal: true,
        noMaterialChangeFinancial: true,
        noMaterialChangeMaterial: true,
        settlementSufficient: true,
        currentLoanSufficient: true,
        solicitorNotified: false,
        solicitorNotifiedDetails: 'Told by phone, letter follows',
        obligationsCompiled: true,
      },
    });
    // The engine cleared the draft once the server took it.
    await waitFor(async () => expect(await db.drafts.count()).toBe(0));
  });

  it('offline: queues the request, shows it waiting, and sends it exactly once on reconnect', async () => {
    await writeDraft(1, requestDraftKey(1), filled);
    let online = false;
    const keys: (string | null)[] = [];
    const { user } = renderApp('/loans/1', {
      role: 'lawyer',
      handlers: loanHandlers(requestable, {
        'POST /drawdowns': (request) => {
          if (!online) throw new TypeError('Failed to fetch');
          keys.push(request.headers.get('Idempotency-Key'));
          return json(201, { id: 78 });
        },
      }),
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Invoice number').value).toBe('INV-204'));
    setOnline(false);
    await user.click(screen.getByRole('button', { name: 'request drawdown' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(/Your request for £1,500.00 is waiting for a connection/)).toBeTruthy();
    expect(await screen.findByText('1 change waiting for a connection')).toBeTruthy();
    expect(keys).toEqual([]);

    online = true;
    setOnline(true);
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(keys).toHaveLength(1));
    expect(await screen.findByText('All changes saved')).toBeTruthy();
    // The form is back, empty, and says the request went.
    expect(await screen.findByText('Your drawdown request has been sent.')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Invoice number').value).toBe('');
    window.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(keys).toHaveLength(1);
    expect(await db.outbox.count()).toBe(0);
  });

  it('over the limit (429): keeps the request, says why it waits instead of blaming the connection', async () => {
    await writeDraft(1, requestDraftKey(1), filled);
    let sent = 0;
    const { user } = renderApp('/loans/1', {
      role: 'lawyer',
      handlers: loanHandlers(requestable, {
        'POST /drawdowns': () => {
          sent += 1;
          return json(429, { error: 'tooManyAttempts', retryAfter: 3600 });
        },
      }),
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Invoice number').value).toBe('INV-204'));
    await user.click(screen.getByRole('button', { name: 'request drawdown' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(
      await screen.findByText(
        'Your request for £1,500.00 is not sent yet: Too many attempts. Please wait a few minutes and try again. It is kept on this device and sent by itself once the wait is over.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/is waiting for a connection/)).toBeNull();
    const [row] = await db.outbox.toArray();
    expect(row!.heldUntil! - Date.now()).toBeGreaterThan(3500_000);
    expect(sent).toBe(1);
  });

  it("a refusal keeps the draft with the server's message on its field and counts in 'Needs your attention'", async () => {
    await writeDraft(1, requestDraftKey(1), filled);
    const { user } = renderApp('/loans/1', {
      role: 'lawyer',
      handlers: loanHandlers(requestable, {
        'POST /drawdowns': () => json(400, { error: 'validation', fields: { amount: 'exceedsCredit' } }),
      }),
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Invoice number').value).toBe('INV-204'));
    await user.click(screen.getByRole('button', { name: 'request drawdown' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    const message = await screen.findByText("The drawdown amount can't exceed available credit");
    expect(screen.getByLabelText('Drawdown amount').closest('.field')?.contains(message)).toBe(true);
    expect(await screen.findByText('Needs your attention')).toBeTruthy();
    const row = await db.drafts.toArray();
    expect(row).toHaveLength(1);
    expect(row[0]).toMatchObject({ status: 'rejected', serverCodes: { amount: 'exceedsCredit' } });
  });

  it('a draft kept with dates typed as free text comes back with their messages, and is not sent (decision 462)', async () => {
    await writeDraft(1, requestDraftKey(1), { ...filled, nextHearingDate: 'next spring', finalOrderDate: '31/02/2041' });
    const { user, calls } = renderApp('/loans/1', { role: 'lawyer', handlers: loanHandlers(requestable) });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Next hearing date').value).toBe('next spring'));
    const format = await screen.findByText('Invalid date format - please check your entry');
    expect(screen.getByLabelText('Next hearing date').closest('.field')?.contains(format)).toBe(true);
    const noSuchDay = screen.getByText('This date does not exist - please check your entry');
    expect(screen.getByLabelText('Final order date').closest('.field')?.contains(noSuchDay)).toBe(true);
    await user.click(screen.getByRole('button', { name: 'request drawdown' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((call) => call.path === '/drawdowns' && call.method === 'POST')).toBe(false);
    expect((await db.drafts.toArray())[0]?.value).toMatchObject({ nextHearingDate: 'next spring' });
  });
});

describe('changing a requested drawdown', () => {
  function requested(extra: Record<string, unknown> = {}) {
    return {
      id: 77,
      loanId: 1,
      applicationId: 101,
      firstName: 'Chris',
      lastName: 'Walker',
      caseRef: 'CR-1',
      status: 'requested',
      amount: 3_000,
      date: new Date().toISOString(),
      loanAmount: 10_000,
      totalDrawdownsAmount: 4_000,
      invoiceNumber: 'INV-FIRST',
      stageOfCase: 'Disclosure',
      materialChanges: false,
      materialChangesDetails: null,
      nextHearingDate: '14/03/2027',
      finalOrderDate: '30/09/2027',
      reaplyAssets: 'Family home',
      expectedRepaymentDate: '31/12/2027',
      clientExpectedRepaymentDate: null,
      lawyerDeclarations: filledDeclarations(),
      clientApprovedAt: null,
      abilities: { transitions: [], edit: true },
      ...extra,
    };
  }
  function filledDeclarations() {
    return {
      noMaterialChangeLegal: true,
      noMaterialChangeFinancial: true,
      noMaterialChangeMaterial: true,
      settlementSufficient: true,
      currentLoanSufficient: true,
      solicitorNotified: true,
      obligationsCompiled: true,
    };
  }

  /** The change page with '-2' typed after the invoice number, kept as the device's draft. */
  async function openWithTypedChange() {
    const app = renderApp('/drawdowns/77/edit', {
      role: 'lawyer',
      handlers: { 'GET /drawdowns/77': () => json(200, requested()) },
    });
    const invoice = await screen.findByLabelText<HTMLInputElement>('Invoice number');
    await app.user.type(invoice, '-2');
    await waitFor(async () => expect(await db.drafts.count()).toBe(1));
    return { ...app, invoice };
  }

  it('starts from the request as the server holds it, counts its own amount as available, and saves it with PUT', async () => {
    const puts: { key: string | null; body: Record<string, unknown> }[] = [];
    const { user, router } = renderApp('/drawdowns/77/edit', {
      role: 'lawyer',
      handlers: {
        'GET /drawdowns/77': () => json(200, requested()),
        'PUT /drawdowns/77': async (request) => {
          puts.push({ key: request.headers.get('Idempotency-Key'), body: (await request.json()) as Record<string, unknown> });
          return json(200, requested({ amount: 3_500 }));
        },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Drawdown Request' })).toBeTruthy();
    const amount = await screen.findByLabelText<HTMLInputElement>('Drawdown amount');
    expect(amount.value).toBe('3000');
    expect(screen.getByLabelText<HTMLInputElement>('Invoice number').value).toBe('INV-FIRST');
    // 10,000 offered, 4,000 drawn of which 3,000 is this request: 9,000 for it.
    expect(screen.getByText('Credit available: £9,000.00')).toBeTruthy();
    expect(await axeViolations(screen.getByRole('main'))).toEqual([]);
    await user.clear(amount);
    await user.type(amount, '9000.01');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("The drawdown amount can't exceed available credit")).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, '3500');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Are you sure you want to change this drawdown request?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/drawdowns/77'));
    expect(puts).toHaveLength(1);
    expect(puts[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(puts[0]!.body).toEqual({
      applicationId: 101,
      amount: 3_500,
      invoiceNumber: 'INV-FIRST',
      stageOfCase: 'Disclosure',
      materialChanges: false,
      nextHearingDate: '14/03/2027',
      finalOrderDate: '30/09/2027',
      reaplyAssets: 'Family home',
      expectedRepaymentDate: '31/12/2027',
      lawyerDeclarations: filledDeclarations(),
    });
    await waitFor(async () => expect(await db.drafts.count()).toBe(0));
  });

  it('open in another tab too: each shows the other’s typing and keeps its own, and the save sends both', async () => {
    const puts: Record<string, unknown>[] = [];
    const { user, router } = renderApp('/drawdowns/77/edit', {
      role: 'lawyer',
      handlers: {
        'GET /drawdowns/77': () => json(200, requested()),
        'PUT /drawdowns/77': async (request) => {
          puts.push((await request.json()) as Record<string, unknown>);
          return json(200, requested());
        },
      },
    });
    const invoice = await screen.findByLabelText<HTMLInputElement>('Invoice number');
    await user.type(invoice, '-2');
    const stored = async () => (await db.drafts.get(draftRowId(1, editDraftKey(77))))?.value as RequestValues | undefined;
    await waitFor(async () => expect((await stored())?.invoiceNumber).toBe('INV-FIRST-2'));

    // The other tab, built on the request as the server holds it, changes the stage of the case.
    const base = (await stored())!;
    const theirs = { ...base, invoiceNumber: 'INV-FIRST', stageOfCase: 'Trial' };
    await writeDraft(1, editDraftKey(77), theirs, { base: { ...base, invoiceNumber: 'INV-FIRST' } });
    const stage = screen.getByLabelText<HTMLInputElement>('Stage of the case');
    await waitFor(() => expect(stage.value).toBe('Trial'));
    expect(invoice.value).toBe('INV-FIRST-2');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/drawdowns/77'));
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({ invoiceNumber: 'INV-FIRST-2', stageOfCase: 'Trial' });
  });

  it('leaving with typed changes asks the spec’s question: No stays with them, Yes lets them go', async () => {
    const { user, router, invoice } = await openWithTypedChange();

    await user.click(screen.getByRole('link', { name: 'Drawdown 77' }));
    await screen.findByRole('alertdialog', { name: LEAVE_UNSAVED_MESSAGE });
    await user.click(screen.getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(currentUrl(router)).toBe('/drawdowns/77/edit');
    expect(invoice.value).toBe('INV-FIRST-2');

    await user.click(screen.getByRole('link', { name: 'Drawdown 77' }));
    await screen.findByRole('alertdialog', { name: LEAVE_UNSAVED_MESSAGE });
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/drawdowns/77'));
    await waitFor(async () => expect(await db.drafts.count()).toBe(0));
  });

  it('cancel discards the typed changes once asked, and goes back to the drawdown', async () => {
    const { user, router } = await openWithTypedChange();
    await user.click(screen.getByRole('button', { name: 'cancel' }));
    expect(await screen.findByText('Are you sure you want to discard these changes?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/drawdowns/77'));
    await waitFor(async () => expect(await db.drafts.count()).toBe(0));
  });

  it('says why a request can no longer be changed', async () => {
    renderApp('/drawdowns/77/edit', {
      role: 'lawyer',
      handlers: {
        'GET /drawdowns/77': () =>
          json(200, requested({ status: 'providerApproved', abilities: { transitions: [], edit: false } })),
      },
    });
    expect(await screen.findByText('This request can no longer be changed: it is pending client approval.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
