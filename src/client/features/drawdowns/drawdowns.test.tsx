// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { BRAND, currentUrl, json, renderApp, type Handlers } from '../../test/render-app';
import { installDomShims } from '../../test/dom-shims';
import { clearAllTables, db } from '../../offline/db';
import { stopSyncForTests } from '../../offline/sync-engine';
import { resetEngineStateForTests } from '../../offline/engine-state';
import { REQUESTED_TEXT } from './drawdown-page';
import { axeViolations } from '../../ui/test-axe';

vi.setConfig({ testTimeout: 20_000 });
beforeAll(installDomShims);
afterEach(async () => {
  stopSyncForTests();
  resetEngineStateForTests();
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  await clearAllTables();
});

function item(id: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    loanId: 3,
    applicationId: 103,
    firstName: 'Chris',
    lastName: `Walker${id}`,
    caseRef: `CR-${id}`,
    status: 'requested',
    amount: 2500.5,
    date: new Date().toISOString(),
    loanAmount: 50_000,
    totalDrawdownsAmount: 12_500.5,
    ...extra,
  };
}

function drawdown(id: number, extra: Record<string, unknown> = {}): { id: number } & Record<string, unknown> {
  return {
    ...item(id),
    invoiceNumber: 'INV-1, INV-2',
    stageOfCase: 'Disclosure',
    materialChanges: true,
    materialChangesDetails: 'The other side made an offer',
    nextHearingDate: '14/03/2027',
    finalOrderDate: '30/09/2027',
    reaplyAssets: 'Family home',
    expectedRepaymentDate: '31/12/2027',
    clientExpectedRepaymentDate: null,
    lawyerDeclarations: {
      noMaterialChangeLegal: true,
      noMaterialChangeFinancial: true,
      noMaterialChangeMaterial: false,
      noMaterialChangeMaterialDetails: 'An offer was made',
      settlementSufficient: true,
      currentLoanSufficient: true,
      solicitorNotified: true,
      obligationsCompiled: true,
    },
    abilities: { transitions: [] as string[] },
    ...extra,
  };
}

const aggregate = () => json(200, { amount: 30_000, amountPaid: 12_345.67, restLoansAmount: 70_000 });

function detail(record: { id: number }, extra: Handlers = {}): Handlers {
  return { [`GET /drawdowns/${record.id}`]: () => json(200, record), ...extra };
}

describe('drawdown history', () => {
  it('flags a drawdown with a refused decision (decision 342)', async () => {
    await db.drafts.put({
      id: '1|drawdown-state:42',
      userId: 1,
      key: 'drawdown-state:42',
      value: { state: 'paid' },
      baseVersion: 0,
      updatedAt: Date.now(),
      status: 'rejected',
      serverCodes: {},
      serverError: 'conflict',
    });
    renderApp('/drawdowns', {
      role: 'admin',
      handlers: {
        'GET /drawdowns': () => json(200, { items: [item(41), item(42)], total: 2, page: 1, pageSize: 10 }),
        'GET /drawdowns/aggregate': aggregate,
      },
    });
    const flagged = await screen.findByRole('link', { name: /Chris Walker42/ });
    await waitFor(() => expect(flagged.textContent).toContain('Needs your attention'));
    expect(screen.getByRole('link', { name: /Chris Walker41/ }).textContent).not.toContain('Needs your attention');
  });

  it('shows the overview to staff and a card per drawdown', async () => {
    renderApp('/drawdowns', {
      role: 'admin',
      handlers: {
        'GET /drawdowns': () => json(200, { items: [item(41), item(42, { status: 'paid' })], total: 2, page: 1, pageSize: 10 }),
        'GET /drawdowns/aggregate': aggregate,
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Drawdown History' })).toBeTruthy();
    const overview = await screen.findByRole('region', { name: 'Drawdowns overview' });
    await waitFor(() => expect(within(overview).getByText('£30,000.00')).toBeTruthy());
    expect(within(overview).getByText('Already drawndown')).toBeTruthy();
    expect(within(overview).getByText('£70,000.00')).toBeTruthy();
    expect(within(overview).getByText('£12,345.67')).toBeTruthy();
    // Pending = already drawn minus paid, in pence.
    expect(within(overview).getByText('£17,654.33')).toBeTruthy();
    const card = screen.getByRole('link', { name: /Chris Walker41/ });
    expect(card.getAttribute('href')).toBe('/drawdowns/41');
    expect(within(card).getByText('Drawdown 41')).toBeTruthy();
    expect(within(card).getByText('CR-41')).toBeTruthy();
    expect(within(card).getByText('£2,500.50')).toBeTruthy();
    expect(within(card).getByText('requested').className).toContain('badge--drawdown-requested');
  });

  it("hides the overview from lawyers ('Drawdowns') and shows the empty state", async () => {
    const { calls } = renderApp('/drawdowns', {
      role: 'lawyer',
      handlers: { 'GET /drawdowns': () => json(200, { items: [], total: 0, page: 1, pageSize: 10 }) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Drawdowns' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'More info on drawdowns' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Drawdowns overview' })).toBeNull();
    expect(calls.some((call) => call.path === '/drawdowns/aggregate')).toBe(false);
  });
});

describe('drawdown history filters', () => {
  it('filters by status (by the spec’s labels) and searches, kept in the address and sent to the server', async () => {
    const seen: string[] = [];
    const { user, router } = renderApp('/drawdowns', {
      role: 'admin',
      handlers: {
        'GET /drawdowns': (request) => {
          seen.push(new URL(request.url).search);
          const status = new URL(request.url).searchParams.get('status');
          const items = status === 'paid' ? [] : [item(41)];
          return json(200, { items, total: items.length, page: 1, pageSize: 10 });
        },
        'GET /drawdowns/aggregate': aggregate,
      },
    });
    await screen.findByRole('link', { name: /Chris Walker41/ });
    const status = screen.getByLabelText('Status');
    expect(
      within(status)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'All statuses',
      'requested',
      'pending client approval',
      'provider rejected',
      'client accepted',
      'client rejected',
      'paid',
    ]);
    await user.selectOptions(status, 'requested');
    await waitFor(() => expect(currentUrl(router)).toBe('/drawdowns?status=requested'));
    await user.type(screen.getByLabelText('Search'), 'walker');
    await waitFor(() => expect(currentUrl(router)).toBe('/drawdowns?status=requested&search=walker'));
    await waitFor(() => expect(new URLSearchParams(seen.at(-1)).get('search')).toBe('walker'));
    expect(new URLSearchParams(seen.at(-1)).get('status')).toBe('requested');
    await user.selectOptions(status, 'paid');
    expect(await screen.findByText('No drawdowns match these filters.')).toBeTruthy();
    expect(await axeViolations(screen.getByRole('main'))).toEqual([]);
  });

  it('opens with the filters the address holds', async () => {
    const seen: string[] = [];
    renderApp('/drawdowns?status=providerApproved&search=CR-41&page=2', {
      role: 'admin',
      handlers: {
        'GET /drawdowns': (request) => {
          seen.push(new URL(request.url).search);
          return json(200, { items: [item(41)], total: 11, page: 2, pageSize: 10 });
        },
        'GET /drawdowns/aggregate': aggregate,
      },
    });
    await screen.findByRole('link', { name: /Chris Walker41/ });
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('providerApproved');
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('CR-41');
    expect(Object.fromEntries(new URLSearchParams(seen.at(-1)))).toMatchObject({
      status: 'providerApproved',
      search: 'CR-41',
      page: '2',
    });
  });
});

describe('drawdown page', () => {
  it("offers 'edit request' only when the record says the caller may change it", async () => {
    const view = renderApp('/drawdowns/41', {
      role: 'lawyer',
      handlers: detail(drawdown(41, { abilities: { transitions: [], edit: true } })),
    });
    const edit = await screen.findByRole('link', { name: 'edit request' });
    expect(edit.getAttribute('href')).toBe('/drawdowns/41/edit');
    view.unmount();
    localStorage.clear();
    renderApp('/drawdowns/41', {
      role: 'lawyer',
      handlers: detail(drawdown(41, { abilities: { transitions: [], edit: false } })),
    });
    expect(await screen.findByText(REQUESTED_TEXT)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'edit request' })).toBeNull();
  });

  it('shows every field, the material-change text and the declarations; the lawyer sees the 48-hour promise', async () => {
    renderApp('/drawdowns/41', { role: 'lawyer', handlers: detail(drawdown(41)) });
    expect(await screen.findByText(REQUESTED_TEXT)).toBeTruthy();
    expect(screen.getByText('There have been material changes since last update')).toBeTruthy();
    expect(screen.getByText('The other side made an offer')).toBeTruthy();
    expect(screen.getByText('INV-1, INV-2')).toBeTruthy();
    expect(screen.getByText('£50,000.00')).toBeTruthy();
    expect(screen.getByText('£37,499.50')).toBeTruthy();
    expect(screen.getByText('Family home')).toBeTruthy();
    expect(screen.getByText('An offer was made')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open loan' }).getAttribute('href')).toBe('/loans/3');
    expect(within(screen.getByRole('main')).queryByRole('button')).toBeNull();
  });

  it("shows 'No material changes since last update' and no promise to staff", async () => {
    renderApp('/drawdowns/43', {
      role: 'admin',
      handlers: detail(drawdown(43, { materialChanges: false, materialChangesDetails: null })),
    });
    expect(await screen.findByText('No material changes since last update')).toBeTruthy();
    expect(screen.queryByText(REQUESTED_TEXT)).toBeNull();
  });

  it('tells staff when the last reminder of the wait went out, and how many of how many', async () => {
    renderApp('/drawdowns/45', {
      role: 'admin',
      handlers: detail(drawdown(45, { lastReminder: { sentAt: '2026-11-26T09:00:00.000Z', count: 2, limit: 3 } })),
    });
    expect(await screen.findByText('Last reminder sent 26/11/2026 09:00 (2 of 3)')).toBeTruthy();
  });

  it('says nothing of reminders when none went out', async () => {
    renderApp('/drawdowns/46', { role: 'admin', handlers: detail(drawdown(46, { lastReminder: null })) });
    expect(await screen.findByText('INV-1, INV-2')).toBeTruthy();
    expect(screen.queryByText(/Last reminder sent/)).toBeNull();
  });

  it('staff approve a requested drawdown after the confirmation', async () => {
    let current = drawdown(44, { abilities: { transitions: ['providerApproved', 'providerRejected'] } });
    const { user, calls } = renderApp('/drawdowns/44', {
      role: 'admin',
      handlers: {
        'GET /drawdowns/44': () => json(200, current),
        'POST /drawdowns/44/state': () => {
          current = { ...current, status: 'providerApproved', abilities: { transitions: [] } };
          return json(200, current);
        },
      },
    });
    expect(await screen.findByRole('button', { name: 'reject' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'approve' }));
    expect(await screen.findByText('Are you sure you want to approve this drawdown request?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('pending client approval')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/drawdowns/44/state').map((call) => call.body)).toEqual([
      { state: 'providerApproved' },
    ]);
  });

  it('the client approves only with all five declarations True; False shows the contact details', async () => {
    const record = drawdown(45, {
      status: 'providerApproved',
      abilities: { transitions: ['customerApproved', 'customerRejected'] },
    });
    const { user, calls } = renderApp('/drawdowns/45', {
      role: 'customer',
      handlers: detail(record, { 'POST /drawdowns/45/state': () => json(200, { ...record, status: 'customerApproved' }) }),
    });
    const approve = await screen.findByRole('button', { name: 'approve request' });
    expect(approve.hasAttribute('disabled')).toBe(true);
    const groups = screen.getAllByRole('radiogroup');
    expect(groups).toHaveLength(5);
    for (const group of groups.slice(0, 4)) await user.click(within(group).getByRole('radio', { name: 'True' }));
    expect(approve.hasAttribute('disabled')).toBe(true);
    await user.click(within(groups[4]!).getByRole('radio', { name: 'False' }));
    expect(
      await screen.findByText(
        `If you do not agree with any of these declarations, please contact us by phone at ${BRAND.phone} or by email at ${BRAND.email}`,
      ),
    ).toBeTruthy();
    expect(approve.hasAttribute('disabled')).toBe(true);
    expect(await axeViolations(screen.getByRole('main'))).toEqual([]);
    await user.click(within(groups[4]!).getByRole('radio', { name: 'True' }));
    await waitFor(() => expect(approve.hasAttribute('disabled')).toBe(false));
    await user.click(approve);
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(calls.some((call) => call.path === '/drawdowns/45/state')).toBe(true));
    expect(calls.find((call) => call.path === '/drawdowns/45/state')?.body).toEqual({
      state: 'customerApproved',
      clientDeclarations: {
        satisfiedWithService: true,
        satisfiedWithSolicitorFee: true,
        approvalToPayAmount: true,
        compliedWithTNC: true,
        confirmLoanBalance: true,
      },
    });
  });

  it('a decision made offline waits on the device and is sent once; a refusal says someone else acted first', async () => {
    let online = false;
    const record = drawdown(46, { status: 'customerApproved', abilities: { transitions: ['paid'] } });
    const sent: (string | null)[] = [];
    const { user } = renderApp('/drawdowns/46', {
      role: 'admin',
      handlers: detail(record, {
        'POST /drawdowns/46/state': (request) => {
          if (!online) throw new TypeError('Failed to fetch');
          sent.push(request.headers.get('Idempotency-Key'));
          return json(409, { error: 'conflict' });
        },
      }),
    });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    await user.click(await screen.findByRole('button', { name: 'set status to paid' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(
      await screen.findByText(
        'Your decision ‘set status to paid’ is kept on this device and will be sent once you are back online.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'set status to paid' })).toBeNull();
    expect(await screen.findByText('1 change waiting for a connection')).toBeTruthy();

    online = true;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(sent).toHaveLength(1));
    const refusal = await screen.findByText(/Your decision ‘set status to paid’ was not made/);
    expect(refusal.textContent).toContain('This was changed by someone else meanwhile.');
    expect(await screen.findByText('Needs your attention')).toBeTruthy();
    expect(await db.outbox.count()).toBe(0);
  });
});
