// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { json, renderApp } from '../test/render-app';
import { installDomShims } from '../test/dom-shims';
import { clearAllTables, db, draftRowId } from '../offline/db';
import { keptFormKeys } from './kept-forms';
import { stopSyncForTests } from '../offline/sync-engine';
import { resetEngineStateForTests } from '../offline/engine-state';

/*
 * The administration's forms keep their typing on the device (offline/kept-record-form.ts): a reload
 * gives it back, unsaved; saving, cancelling back to the record, or leaving with 'Yes' lets it go.
 */

vi.setConfig({ testTimeout: 20_000 });
beforeAll(installDomShims);
afterEach(async () => {
  cleanup();
  stopSyncForTests();
  resetEngineStateForTests();
  await clearAllTables();
});

const firm = {
  id: 3,
  firmName: 'Harbour & Vale',
  firstName: 'Fiona',
  surname: 'Hale',
  login: 'fiona@hv.test',
  casesAmount: 0,
  lawyersCount: 0,
  abilities: { edit: true, delete: true },
};
const firmHandlers = {
  'GET /firms/3': () => json(200, firm),
  'GET /firms/3/loans/aggregate': () => json(200, { loansSum: 0, totalDrawdowns: 0, loansCount: 0, dateCustomerAccepted: null }),
  'GET /firms/3/lawyers': () => json(200, { items: [], total: 0, page: 1, pageSize: 10 }),
};

/** The kept typing of a form for the signed-in test user (id 1), once written. */
async function kept(key: string): Promise<unknown> {
  return (await db.drafts.get(draftRowId(1, key)))?.value;
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('typing kept on the device in the administration', () => {
  it('a new firm: the typing comes back after a reload, and leaves the device once saved', async () => {
    const first = renderApp('/firms/add', { role: 'admin' });
    await first.user.type(await screen.findByLabelText('Firm name'), 'Northgate Law');
    await first.user.type(input('Surname'), 'Okafor');
    await waitFor(async () =>
      expect(await kept(keptFormKeys.addFirm())).toEqual({ firmName: 'Northgate Law', surname: 'Okafor' }),
    );
    cleanup();

    const second = renderApp('/firms/add', {
      role: 'admin',
      handlers: {
        'POST /firms': () => json(201, { ...firm, id: 4 }),
        'GET /firms': () => json(200, { items: [], total: 0, page: 1, pageSize: 10, lawyersCount: 0 }),
      },
    });
    await waitFor(() => expect(input('Firm name').value).toBe('Northgate Law'));
    expect(input('Surname').value).toBe('Okafor');
    expect(input('First name').value).toBe('');
    // Unsaved still: save is there to press.
    expect((screen.getByRole('button', { name: 'save' }) as HTMLButtonElement).disabled).toBe(false);
    await second.user.type(input('First name'), 'Ada');
    await second.user.type(input('Login'), 'ada@northgate.test');
    await second.user.click(screen.getByRole('button', { name: 'save' }));
    await waitFor(() => expect(second.calls.some((call) => call.path === '/firms')).toBe(true));
    await waitFor(async () => expect(await kept(keptFormKeys.addFirm())).toBeUndefined());
  });

  it('an edited firm: only the changed field is kept; a reload opens the details for editing with it', async () => {
    const first = renderApp('/firms/3', { role: 'admin', handlers: firmHandlers });
    await first.user.click(await screen.findByRole('button', { name: 'Firm - details' }));
    await waitFor(() => expect(input('Firm name').value).toBe('Harbour & Vale'));
    await first.user.click(screen.getByRole('button', { name: 'edit' }));
    await first.user.clear(input('Surname'));
    await first.user.type(input('Surname'), 'Hale-Marsh');
    await waitFor(async () => expect(await kept(keptFormKeys.firm(3))).toEqual({ surname: 'Hale-Marsh' }));
    cleanup();

    // Meanwhile someone else renamed the firm: that change stays; the typing goes back on its field.
    const second = renderApp('/firms/3', {
      role: 'admin',
      handlers: { ...firmHandlers, 'GET /firms/3': () => json(200, { ...firm, firmName: 'Harbour Vale LLP' }) },
    });
    await waitFor(() => expect(input('Surname').value).toBe('Hale-Marsh'));
    expect(input('Firm name').value).toBe('Harbour Vale LLP');
    expect(input('Surname').disabled).toBe(false);
    expect(screen.getByRole('button', { name: 'cancel' })).toBeTruthy();

    // Cancel puts the record back, and nothing is kept any more.
    await second.user.click(screen.getByRole('button', { name: 'cancel' }));
    await waitFor(async () => expect(await kept(keptFormKeys.firm(3))).toBeUndefined());
  });

  it("leaving with 'Yes' to the spec's question lets the typing go", async () => {
    const { user } = renderApp('/firms/add', {
      role: 'admin',
      handlers: { 'GET /firms': () => json(200, { items: [], total: 0, page: 1, pageSize: 10, lawyersCount: 0 }) },
    });
    await user.type(await screen.findByLabelText('Firm name'), 'Short-lived');
    await waitFor(async () => expect(await kept(keptFormKeys.addFirm())).toEqual({ firmName: 'Short-lived' }));
    await user.click(screen.getByRole('link', { name: 'cancel' }));
    expect(await screen.findByText('Changes will not be saved. Are you sure want exit?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(async () => expect(await kept(keptFormKeys.addFirm())).toBeUndefined());
  });
});
