// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { currentUrl, json, renderApp } from '../../../test/render-app';
import { clearAllTables } from '../../../offline/db';
import { readDrafts, writeDraft } from '../../../offline/drafts';
import { stepDefinitions } from '../wizard/steps/registry';
import { NEW_APPLICATION_DRAFT_KEY } from './new-application-page';
import { application, installDomShims, validPersonal } from '../wizard/wizard-fixtures';

vi.setConfig({ testTimeout: 20_000 });
beforeAll(installDomShims);
afterEach(async () => {
  await clearAllTables();
});

async function seedValidDraft() {
  await writeDraft(1, NEW_APPLICATION_DRAFT_KEY, stepDefinitions.personal.fromJourney(validPersonal));
}

describe('new application', () => {
  it('shows the title, the step bar with every step disabled and the first active', async () => {
    renderApp('/applications/new', { role: 'lawyer' });
    expect(await screen.findByRole('heading', { level: 1, name: 'New application' })).toBeTruthy();
    const bar = screen.getByRole('navigation', { name: 'Application steps' });
    expect(within(bar).queryAllByRole('link')).toHaveLength(0);
    expect(within(bar).getByText('Client details').closest('[aria-current]')?.getAttribute('aria-current')).toBe('step');
  });

  it('shows the required fields after Save & Continue and sends nothing', async () => {
    const { user, calls } = renderApp('/applications/new', { role: 'lawyer' });
    await user.click(await screen.findByRole('button', { name: 'Save & Continue' }));
    expect((await screen.findAllByText('Required field')).length).toBeGreaterThan(3);
    expect(calls.some((call) => call.path === '/applications/create')).toBe(false);
  });

  it("shows the server's login error on the email field", async () => {
    await seedValidDraft();
    const { user } = renderApp('/applications/new', {
      role: 'lawyer',
      handlers: { 'POST /applications/create': () => json(400, { error: 'validation', fields: { login: 'login' } }) },
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email address').value).toBe('nina@example.test'));
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    // The refusal comes back through the outbox's send and settle: give a busy machine time.
    const message = await screen.findByText('This email is already in use', {}, { timeout: 15_000 });
    expect(screen.getByLabelText('Email address').closest('.field')?.contains(message)).toBe(true);
  });

  it('creates the application and opens its first incomplete step', async () => {
    await seedValidDraft();
    const created = application(42, { personal: validPersonal });
    const { user, router, calls } = renderApp('/applications/new', {
      role: 'lawyer',
      handlers: {
        'POST /applications/create': () => json(201, created),
        'GET /applications/42': () => json(200, created),
      },
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email address').value).toBe('nina@example.test'));
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/applications/42/case'));
    const create = calls.find((call) => call.path === '/applications/create');
    expect(create?.body).toMatchObject({
      lawyerId: 5,
      journeyData: { personal: { firstName: 'Nina', email: 'nina@example.test' } },
    });
  });

  it('root chooses the lawyer from the lawyers list; without one the select is highlighted (decision 345)', async () => {
    await seedValidDraft();
    const created = application(42, { personal: validPersonal });
    const lawyer = (id: number, firstName: string, state = 'active') => ({
      id,
      firstName,
      surname: 'Bennett',
      login: `${firstName}@example.test`,
      firmId: 3,
      firm: { id: 3, firmName: 'Harbour & Vale' },
      casesAmount: 0,
      state,
      abilities: { edit: true, delete: true },
    });
    const { user, router, calls } = renderApp('/applications/new', {
      role: 'root',
      handlers: {
        'GET /lawyers': () =>
          json(200, { items: [lawyer(7, 'Laura'), lawyer(8, 'Gone', 'disabled')], total: 2, page: 1, pageSize: 100 }),
        'POST /applications/create': () => json(201, created),
        'GET /applications/42': () => json(200, created),
      },
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email address').value).toBe('nina@example.test'));
    const select = await screen.findByLabelText<HTMLSelectElement>('Lawyer');
    await waitFor(() => expect(within(select).getByRole('option', { name: 'Laura Bennett (Harbour & Vale)' })).toBeTruthy());
    expect(within(select).queryByRole('option', { name: /Gone/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(select.closest('.field')?.textContent).toContain('Required field');
    expect(calls.some((call) => call.path === '/applications/create')).toBe(false);

    await user.selectOptions(select, '7');
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/applications/42/details'));
    expect(calls.find((call) => call.path === '/applications/create')?.body).toMatchObject({ lawyerId: 7 });
  });

  it('keeps the application on the device when offline and goes on to the next step', async () => {
    await seedValidDraft();
    const { user, router } = renderApp('/applications/new', {
      role: 'lawyer',
      handlers: {
        'POST /applications/create': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email address').value).toBe('nina@example.test'));
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
      expect(
        await screen.findByText('Saved on this device. The application will be created when you are back online.'),
      ).toBeTruthy();
      await waitFor(() => expect(currentUrl(router)).toMatch(/^\/applications\/local-[0-9a-f-]+\/case$/));
      expect(await screen.findByRole('heading', { level: 1, name: 'Case details' })).toBeTruthy();
      expect(screen.getByText(/the application will be created when the connection returns/)).toBeTruthy();
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });

  it('a create refused after it left the device keeps the details with the server’s message until corrected', async () => {
    await seedValidDraft();
    let answer: 'offline' | 'login' | 'created' = 'offline';
    const answered = { login: 0, created: 0 };
    const created = application(42, { personal: { ...validPersonal, email: 'nina.new@example.test' } });
    const { user, router, calls } = renderApp('/applications/new', {
      role: 'lawyer',
      handlers: {
        'POST /applications/create': () => {
          if (answer === 'offline') throw new TypeError('Failed to fetch');
          answered[answer] += 1;
          if (answer === 'login') return json(400, { error: 'validation', fields: { login: 'login' } });
          return json(201, created);
        },
        'GET /applications': () => json(200, { items: [], total: 0, page: 1, pageSize: 10 }),
        'GET /applications/42': () => json(200, created),
      },
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email address').value).toBe('nina@example.test'));
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await waitFor(() => expect(currentUrl(router)).toMatch(/^\/applications\/local-[0-9a-f-]+\/case$/));
    const localId = currentUrl(router).split('/')[2]!;

    // Back online, the server refuses the create: the email already has an account.
    answer = 'login';
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(answered.login).toBe(1));
    await router.navigate('/applications');
    const waiting = await screen.findByRole('region', { name: 'Not on the server yet' });
    await user.click(await within(waiting).findByRole('link', { name: /Needs your attention/ }));
    await waitFor(() => expect(currentUrl(router)).toBe(`/applications/${localId}/personal`));
    const email = await screen.findByLabelText<HTMLInputElement>('Email address');
    expect(email.value).toBe('nina@example.test');
    expect(screen.getByLabelText<HTMLInputElement>('First name').value).toBe('Nina');
    expect(email.closest('.field')?.textContent).toContain('This email is already in use');

    // Corrected, it is created under the same local id, and the wizard follows the server's id.
    answer = 'created';
    await user.clear(email);
    await user.type(email, 'nina.new@example.test');
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await waitFor(() => expect(currentUrl(router)).toMatch(/^\/applications\/42\//));
    expect(answered).toEqual({ login: 1, created: 1 });
    expect(calls.filter((call) => call.path === '/applications/create').at(-1)!.body).toMatchObject({
      journeyData: { personal: { email: 'nina.new@example.test', firstName: 'Nina' } },
    });
  });

  it('the typed details go with the create: none are left behind once the server has it', async () => {
    await seedValidDraft();
    const created = application(42, { personal: validPersonal });
    const { user, router } = renderApp('/applications/new', {
      role: 'lawyer',
      handlers: {
        'POST /applications/create': () => json(201, created),
        'GET /applications/42': () => json(200, created),
      },
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email address').value).toBe('nina@example.test'));
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/applications/42/case'));
    await waitFor(async () => expect(await readDrafts(1)).toEqual([]));
  });

  it('a create refused on this screen keeps the details here with the server’s message, also after a reload', async () => {
    await seedValidDraft();
    const handlers = { 'POST /applications/create': () => json(400, { error: 'validation', fields: { login: 'login' } }) };
    const { user } = renderApp('/applications/new', { role: 'lawyer', handlers });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email address').value).toBe('nina@example.test'));
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await screen.findByText('This email is already in use');
    // One draft, this form's, refused with the server's code; no local application waits.
    await waitFor(async () =>
      expect((await readDrafts(1)).map((draft) => [draft.key, draft.status, draft.serverCodes])).toEqual([
        [NEW_APPLICATION_DRAFT_KEY, 'rejected', { login: 'login' }],
      ]),
    );

    cleanup();
    renderApp('/applications/new', { role: 'lawyer', handlers });
    const email = await screen.findByLabelText<HTMLInputElement>('Email address');
    await waitFor(() => expect(email.value).toBe('nina@example.test'));
    expect(email.closest('.field')?.textContent).toContain('This email is already in use');
  });
});
