// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { currentUrl, json, renderApp, type Handlers } from '../../test/render-app';
import { installDomShims } from '../../test/dom-shims';
import { clearAllTables } from '../../offline/db';
import { stopSyncForTests } from '../../offline/sync-engine';
import { resetEngineStateForTests } from '../../offline/engine-state';
import { axeViolations } from '../../ui/test-axe';
import type { FacilityChange } from './loans-api';

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

const noAbilities = { transitions: [], requestDrawdown: false, requestBalance: false, updateAmount: false, signVariation: false };

/** £50,000 signed, £12,500.50 drawn; `pendingAmount` a raise waiting for the client's signature. */
function loan(extra: Record<string, unknown> = {}, abilities: Record<string, unknown> = {}) {
  return {
    id: 9,
    applicationId: 109,
    date: new Date().toISOString(),
    amount: 50_000,
    pendingAmount: null,
    totalDrawdowns: 12_500.5,
    creditAvailable: 37_499.5,
    state: 'open',
    clientName: 'Chris',
    clientSurname: 'Walker',
    caseRef: 'CR-9',
    ...extra,
    abilities: { ...noAbilities, ...abilities },
  };
}

function handlers(record: object, extra: Handlers = {}, history: FacilityChange[] = []): Handlers {
  return {
    'GET /loans/9': () => json(200, record),
    'GET /drawdowns': () => json(200, { items: [], total: 0, page: 1, pageSize: 10 }),
    'GET /loans/9/facility-history': () => json(200, { items: history }),
    ...extra,
  };
}

const change = (id: number, values: Partial<FacilityChange>): FacilityChange => ({
  id,
  at: new Date(Date.UTC(2026, 10, 20 + id, 10, 0)).toISOString(),
  event: 'signed',
  amount: null,
  pendingAmount: null,
  previousAmount: null,
  previousPendingAmount: null,
  by: 'provider',
  byName: null,
  ...values,
});

describe('a facility raised above what the client signed for', () => {
  it('staff are told a raise needs the client’s signature, asked so, and told it was sent', async () => {
    const { user, calls } = renderApp('/loans/9', {
      role: 'admin',
      handlers: handlers(loan({}, { updateAmount: true }), {
        'POST /loans/update': () => json(200, { applicationId: 109, loanId: 9, amount: 50_000, pendingAmount: 60_000 }),
      }),
    });
    const input = await screen.findByLabelText('New credit offered');
    expect(
      screen.getByText(
        'Signed £50,000.00; at least £12,500.50 (already drawn). Above the signed credit, the client is asked to sign a variation.',
      ),
    ).toBeTruthy();
    await user.type(input, '60000');
    await user.click(screen.getByRole('button', { name: 'update loan facility' }));
    expect(
      await screen.findByText(
        'Are you sure you want to update the loan amount to £60,000.00? The client will be asked to sign a variation before more than £50,000.00 can be drawn.',
      ),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The variation has been sent to the client to sign.')).toBeTruthy();
    expect(calls.find((call) => call.path === '/loans/update')?.body).toEqual({ loanId: 9, applicationId: 109, amount: 60_000 });
  });

  it('shows the client the signed and the pending credit, and opens the signing page from ‘sign variation’', async () => {
    const record = loan({ pendingAmount: 60_000 }, { signVariation: true, transitions: ['blocked'] });
    const { user, router } = renderApp('/loans/9', {
      role: 'customer',
      handlers: handlers(record, { 'POST /loans/9/variation/sign': () => json(200, { envelopUrl: '/esign/abc' }) }),
    });
    const figures = await screen.findByText('Pending variation');
    expect(figures.parentElement?.textContent).toBe('Pending variation£60,000.00 waiting for your signature');
    const panel = screen.getByRole('region', { name: 'Variation to sign' });
    expect(panel.textContent).toContain(
      'The credit of your loan is to rise from £50,000.00 to £60,000.00. Please read and sign the variation of your Credit Agreement: the extra £10,000.00 can be drawn once you have signed it.',
    );
    expect(await axeViolations(screen.getByRole('main'))).toEqual([]);

    setOnline(false);
    await user.click(within(panel).getByRole('button', { name: 'sign variation' }));
    expect(await within(panel).findByText('Signing needs a connection. Please try again once you are back online.')).toBeTruthy();
    setOnline(true);
    await user.click(within(panel).getByRole('button', { name: 'sign variation' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/esign/abc'));
  });

  it('says so when the variation was withdrawn meanwhile', async () => {
    const record = loan({ pendingAmount: 60_000 }, { signVariation: true });
    const { user } = renderApp('/loans/9', {
      role: 'customer',
      handlers: handlers(record, { 'POST /loans/9/variation/sign': () => json(409, { error: 'variationNotPending' }) }),
    });
    await user.click(await screen.findByRole('button', { name: 'sign variation' }));
    expect(await screen.findByText('There is no variation of this loan waiting for your signature.')).toBeTruthy();
  });

  it('gives the lawyer the signed credit to draw, what waits for the signature, and the clear refusal beyond', async () => {
    const record = loan({ pendingAmount: 60_000 }, { requestDrawdown: true });
    const { user } = renderApp('/loans/9', { role: 'lawyer', handlers: handlers(record) });
    expect(
      await screen.findByText('Credit available: £37,499.50 (£10,000.00 more once the client signs the variation)'),
    ).toBeTruthy();
    expect(screen.getByText('waiting for the client’s signature')).toBeTruthy();
    const amount = screen.getByLabelText('Drawdown amount');
    await user.type(amount, '37499.51');
    await user.tab();
    expect(
      await screen.findByText(
        "The drawdown amount can't exceed the credit the client has signed for. The rest can be drawn once they sign the variation",
      ),
    ).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, '47499.51');
    expect(await screen.findByText("The drawdown amount can't exceed available credit")).toBeTruthy();
  });

  it('lists the facility’s history in words, newest first', async () => {
    const history = [
      change(5, { event: 'lowered', amount: 45_000, previousAmount: 60_000, byName: 'Ava Admin' }),
      change(4, {
        event: 'variationSigned',
        amount: 60_000,
        previousAmount: 50_000,
        previousPendingAmount: 60_000,
        by: 'client',
      }),
      change(3, {
        event: 'variationRequested',
        amount: 50_000,
        pendingAmount: 60_000,
        previousAmount: 50_000,
        previousPendingAmount: 55_000,
      }),
      change(2, { event: 'variationRequested', amount: 50_000, pendingAmount: 55_000, previousAmount: 50_000 }),
      change(1, { event: 'signed', amount: 50_000, by: null }),
    ];
    renderApp('/loans/9', { role: 'admin', handlers: handlers(loan(), {}, history) });
    const section = await screen.findByRole('region', { name: 'Facility history' });
    await waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(5));
    const texts = within(section)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.loan-history__text')?.textContent);
    expect(texts).toEqual([
      'Lowered to £45,000.00',
      'Variation signed by the client: £60,000.00',
      'Raised to £60,000.00, waiting for the client’s signature (replaces the variation to £55,000.00)',
      'Raised to £55,000.00, waiting for the client’s signature',
      'Signed by the client: £50,000.00',
    ]);
    expect(within(section).getAllByRole('listitem')[0]!.textContent).toContain('by Ava Admin');
    expect(within(section).getAllByRole('listitem')[1]!.textContent).toContain('by the client');
  });
});
