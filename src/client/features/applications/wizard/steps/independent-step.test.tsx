// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { sessionAtom } from '../../../../session/session';
import { userFor } from '../../../../test/render-app';
import { axeViolations } from '../../../../ui/test-axe';
import { validateStep } from '../../../../../shared/journey/validate';
import { independentStep, type IndependentValues } from './independent-step';
import { stepHarness } from './test-harness';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const solicitors = {
  items: [
    {
      id: 3,
      name: 'Able & Co',
      address: { house: '1', street: 'King Street', city: 'Leeds', postcode: 'ls14ap' },
      contactNumber: '0113 000 0000',
      email: 'a@example.com',
      fee: 250,
      deliveryMethod: 'remote',
      casesAmount: 0,
      state: 'active',
    },
    {
      id: 4,
      name: 'Baker Law',
      address: { address: '5 Mill Lane, York' },
      contactNumber: '01904 000 000',
      email: 'b@example.com',
      fee: 300.5,
      deliveryMethod: 'office',
      casesAmount: 2,
      state: 'active',
    },
  ],
  total: 2,
  page: 1,
  pageSize: 100,
  withActiveCases: 1,
};

function stubSolicitors(answer: () => Response | Promise<Response>) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return answer();
    }),
  );
  return urls;
}
const ok = () => new Response(JSON.stringify(solicitors), { status: 200, headers: { 'Content-Type': 'application/json' } });

function renderStep(values: IndependentValues | undefined, audience: 'lawyer' | 'customer', errors: Record<string, string> = {}) {
  const store = createStore();
  // A distinct user per render keeps the device's saved copies of the list apart between tests.
  const user = { ...userFor(audience), id: Math.floor(Math.random() * 1e9) };
  store.set(sessionAtom, { status: 'signedIn', token: 't', user });
  const harness = stepHarness(independentStep, values);
  render(
    <Provider store={store}>
      <harness.Harness audience={audience} errors={errors} />
    </Provider>,
  );
  return harness;
}

describe('independent advice step', () => {
  it('lists the solicitors (name, address, fee) and mentions the fixed fee; a choice is kept', async () => {
    const urls = stubSolicitors(ok);
    const ui = userEvent.setup();
    const { latest, onTouch } = renderStep(undefined, 'lawyer');
    expect(screen.getByText(/The fixed fee is £250 plus VAT/)).toBeTruthy();
    const group = await screen.findByRole('radiogroup', { name: 'Choose a solicitor to give your client independent advice' });
    expect(new URL(urls[0]!).searchParams.get('pageSize')).toBe('100');
    expect(within(group).getByText('1 King Street, Leeds, LS1 4AP. Fee £250.00')).toBeTruthy();
    expect(within(group).getByText('5 Mill Lane, York. Fee £300.50')).toBeTruthy();
    await ui.click(within(group).getByText('Baker Law'));
    expect(latest().solicitorId).toBe('4');
    await ui.tab();
    expect(onTouch).toHaveBeenCalledWith('solicitorId');
    expect(independentStep.toJourney(latest())).toEqual({ solicitorId: 4 });
    expect(
      screen.getByRole('checkbox', {
        name: 'My client consents to their details being shared with the solicitor for independent advice',
      }),
    ).toBeTruthy();
    expect(
      screen.getByRole('checkbox', { name: 'I am authorised by my client to submit this application on their behalf' }),
    ).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it('the client sees no consent boxes; using their own solicitor hides the list and drops the choice', async () => {
    stubSolicitors(ok);
    const ui = userEvent.setup();
    const { latest } = renderStep({ solicitorId: '3', useOwnSolicitor: false, consent: false, authorised: false }, 'customer');
    await screen.findByRole('radiogroup', { name: 'Choose a solicitor to give you independent advice' });
    expect(screen.queryByRole('checkbox', { name: /consents/ })).toBeNull();
    expect(screen.getByText(/You must get independent legal advice/)).toBeTruthy();
    await ui.click(screen.getByRole('checkbox', { name: 'I will use my own solicitor' }));
    expect(screen.queryByRole('radiogroup')).toBeNull();
    expect(latest()).toEqual({ solicitorId: '3', useOwnSolicitor: true, consent: false, authorised: false });
    expect(independentStep.toJourney(latest())).toEqual({ useOwnSolicitor: true });
  });

  it('offline without a saved list: says the list needs a connection and keeps the choice', async () => {
    stubSolicitors(() => Promise.reject(new TypeError('Failed to fetch')));
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { latest } = renderStep({ solicitorId: '3', useOwnSolicitor: false, consent: true, authorised: true }, 'lawyer', {
      solicitorId: 'Required field',
    });
    expect(await screen.findByText('The list of solicitors needs a connection. Any choice already made is kept.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.getByText('Required field')).toBeTruthy();
    expect(latest().solicitorId).toBe('3');
    expect(independentStep.toJourney(latest())).toEqual({ solicitorId: 3, consent: true, authorised: true });
  });

  it('a server failure says the list could not be loaded', async () => {
    stubSolicitors(
      () =>
        new Response(JSON.stringify({ error: 'forbidden' }), { status: 403, headers: { 'Content-Type': 'application/json' } }),
    );
    renderStep(undefined, 'lawyer');
    expect(await screen.findByText('The list of solicitors could not be loaded. Any choice already made is kept.')).toBeTruthy();
  });

  it('converts both ways and repairs drafts', () => {
    const journey = { solicitorId: 7, consent: true, authorised: true };
    expect(independentStep.toJourney(independentStep.fromJourney(journey))).toEqual(journey);
    expect(validateStep('independent', journey, { audience: 'lawyer', today: new Date() }).success).toBe(true);
    expect(independentStep.fromJourney({ solicitorId: null, useOwnSolicitor: true })).toEqual({
      solicitorId: '',
      useOwnSolicitor: true,
      consent: false,
      authorised: false,
    });
    expect(independentStep.parseDraft({ solicitorId: 5, consent: 'yes', useOwnSolicitor: true })).toEqual({
      solicitorId: '5',
      useOwnSolicitor: true,
      consent: false,
      authorised: false,
    });
    expect(independentStep.parseDraft('x')).toBeNull();
  });
});
