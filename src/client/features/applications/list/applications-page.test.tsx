// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentUrl, json, renderApp } from '../../../test/render-app';
import { clearAllTables, db } from '../../../offline/db';
import { pageWindow } from '../../../ui/pagination';

// Screens load as lazy chunks and the outbox goes through IndexedDB: slower than a unit test.
vi.setConfig({ testTimeout: 20_000 });

afterEach(async () => {
  await clearAllTables();
});

const day = 86_400_000;
function item(id: number, ageDays: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    lawyerId: 5,
    name: 'John',
    surname: `Smith${id}`,
    caseRef: `CR-${id}`,
    startDate: new Date(Date.now() - ageDays * day).toISOString(),
    status: 'created',
    ...extra,
  };
}

function listHandler(items: unknown[], total = items.length) {
  return (request: Request) => {
    const url = new URL(request.url);
    return json(200, { items, total, page: Number(url.searchParams.get('page') ?? 1), pageSize: 10 });
  };
}

describe('applications list', () => {
  it('groups items by date and shows name, id, case reference, status and date', async () => {
    renderApp('/applications', {
      role: 'lawyer',
      handlers: {
        'GET /applications': listHandler([
          item(123, 0),
          item(124, 3, { status: 'submitted' }),
          item(125, 30, { status: 'incomplete', caseRef: null }),
        ]),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Applications' })).toBeTruthy();
    const today = await screen.findByRole('region', { name: 'Today' });
    const week = screen.getByRole('region', { name: 'Last 7 days' });
    const earlier = screen.getByRole('region', { name: 'Earlier' });
    expect(within(today).getByText('J. Smith123')).toBeTruthy();
    expect(within(today).getByText('A-000123')).toBeTruthy();
    expect(within(today).getByText('CR-123')).toBeTruthy();
    const status = within(today).getByText('incomplete');
    expect(status.className).toContain('badge--application-created');
    const date = new Date();
    const ddmmyyyy = `${String(date.getDate()).padStart(2, '0')}/${String(date.getMonth() + 1).padStart(2, '0')}/${date.getFullYear()}`;
    expect(within(today).getByText(ddmmyyyy)).toBeTruthy();
    expect(within(week).getByText('submitted').className).toContain('badge--application-submitted');
    expect(within(earlier).getByText('started').className).toContain('badge--application-incomplete');
  });

  it('opens the wizard for an editable application and the details otherwise (lawyer)', async () => {
    renderApp('/applications', {
      role: 'lawyer',
      handlers: { 'GET /applications': listHandler([item(1, 0), item(2, 0, { status: 'submitted' })]) },
    });
    const first = await screen.findByRole('link', { name: /J\. Smith1\b/ });
    expect(first.getAttribute('href')).toBe('/applications/1/resume');
    expect(screen.getByRole('link', { name: /J\. Smith2\b/ }).getAttribute('href')).toBe('/applications/2/details');
  });

  it('follows what the server says the caller may do with each item, not its status', async () => {
    const abilities = (editJourney: boolean) => ({ editJourney, submit: editJourney, transitions: [], changeDocuments: [] });
    renderApp('/applications', {
      role: 'lawyer',
      handlers: {
        'GET /applications': listHandler([
          item(1, 0, { status: 'created', abilities: abilities(false) }),
          item(2, 0, { status: 'incomplete', abilities: abilities(true) }),
        ]),
      },
    });
    expect((await screen.findByRole('link', { name: /J\. Smith1\b/ })).getAttribute('href')).toBe('/applications/1/details');
    expect(screen.getByRole('link', { name: /J\. Smith2\b/ }).getAttribute('href')).toBe('/applications/2/resume');
  });

  it('opens the details for staff, whatever the status', async () => {
    renderApp('/applications', { role: 'admin', handlers: { 'GET /applications': listHandler([item(1, 0)]) } });
    expect((await screen.findByRole('link', { name: /J\. Smith1\b/ })).getAttribute('href')).toBe('/applications/1/details');
  });

  it("shows 'new application' only to a role that may create one", async () => {
    const lawyer = renderApp('/applications', { role: 'lawyer', handlers: { 'GET /applications': listHandler([item(1, 0)]) } });
    const link = await screen.findByRole('link', { name: 'new application' });
    expect(link.getAttribute('href')).toBe('/applications/new');
    lawyer.unmount();
    localStorage.clear();
    for (const role of ['admin', 'firm', 'customer'] as const) {
      const view = renderApp('/applications', { role, handlers: { 'GET /applications': listHandler([item(1, 0)]) } });
      await screen.findByText('J. Smith1');
      expect(screen.queryByRole('link', { name: 'new application' })).toBeNull();
      view.unmount();
      localStorage.clear();
    }
  });

  it('shows the empty-state panel when there are no applications', async () => {
    renderApp('/applications', { role: 'lawyer', handlers: { 'GET /applications': listHandler([]) } });
    expect(await screen.findByRole('heading', { name: 'More info on applications' })).toBeTruthy();
    expect(screen.getByText(/A lawyer creates an application for a client/)).toBeTruthy();
  });

  it('keeps status, search and page in the address and sends them to the server', async () => {
    const { user, router, calls } = renderApp('/applications', {
      role: 'lawyer',
      handlers: { 'GET /applications': listHandler([item(1, 0)], 35) },
    });
    await screen.findByText('J. Smith1');
    await user.selectOptions(screen.getByLabelText('Status'), 'submitted');
    await waitFor(() => expect(currentUrl(router)).toBe('/applications?status=submitted'));
    await user.type(screen.getByLabelText('Search'), 'smith');
    await waitFor(() => expect(currentUrl(router)).toBe('/applications?status=submitted&search=smith'));
    await user.click(await screen.findByRole('link', { name: 'Page 3' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/applications?status=submitted&search=smith&page=3'));
    await waitFor(() => expect(calls.filter((call) => call.path === '/applications').length).toBeGreaterThanOrEqual(4));
    // Back returns to the previous filter state.
    await router.navigate(-1);
    await waitFor(() => expect(currentUrl(router)).toBe('/applications?status=submitted&search=smith'));
    expect(screen.getByLabelText<HTMLInputElement>('Search').value).toBe('smith');
  });

  it('reads the filters from a bookmarked address', async () => {
    const seen: string[] = [];
    renderApp('/applications?status=created&search=CR-9&page=2', {
      role: 'lawyer',
      handlers: {
        'GET /applications': (request) => {
          seen.push(new URL(request.url).search);
          return listHandler([item(9, 0)], 25)(request);
        },
      },
    });
    await screen.findByText('J. Smith9');
    const params = new URLSearchParams(seen.at(-1));
    expect(params.get('status')).toBe('created');
    expect(params.get('search')).toBe('CR-9');
    expect(params.get('page')).toBe('2');
    expect(params.get('pageSize')).toBe('10');
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('created');
    expect(screen.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows at most five page links around the current page', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(10, 20)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(20, 20)).toEqual([16, 17, 18, 19, 20]);
  });

  it('shows the saved copy with its time when the server cannot be reached', async () => {
    let online = true;
    const first = renderApp('/applications', {
      role: 'lawyer',
      handlers: {
        'GET /applications': (request) => {
          if (!online) throw new TypeError('Failed to fetch');
          return listHandler([item(77, 0)])(request);
        },
      },
    });
    await screen.findByText('J. Smith77');
    // The copy is written after the answer.
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.unmount();
    online = false;
    renderApp('/applications', {
      role: 'lawyer',
      handlers: {
        'GET /applications': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    expect(await screen.findByText('J. Smith77')).toBeTruthy();
    expect(screen.getByText(/^Saved copy from \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeTruthy();
  });

  it('shows applications created offline on top, waiting for a connection', async () => {
    await db.outbox.add({
      id: 'm-1',
      userId: 1,
      kind: 'createApplication',
      payload: { localId: 'local-abc', personal: { firstName: 'Ruth', lastName: 'Okafor' } },
      createdAt: Date.now(),
      attempts: 0,
    } as never);
    renderApp('/applications', {
      role: 'lawyer',
      handlers: {
        'GET /applications': listHandler([item(1, 0)]),
        'POST /applications/create': () => new Promise<Response>(() => undefined),
      },
    });
    const waiting = await screen.findByRole('region', { name: 'Not on the server yet' });
    const link = within(waiting).getByRole('link', { name: /R\. Okafor/ });
    expect(link.getAttribute('href')).toBe('/applications/local-abc/resume');
    expect(link.querySelector('.badge--waiting')?.textContent).toBe('Waiting for a connection');
  });

  it('flags an application with a refused save, opening the step where it is fixed (decision 342)', async () => {
    await db.drafts.put({
      id: '1|application:2:case',
      userId: 1,
      key: 'application:2:case',
      value: { caseRef: '' },
      baseVersion: 1,
      updatedAt: Date.now(),
      status: 'rejected',
      serverCodes: { caseRef: 'required' },
      serverError: 'validation',
    });
    renderApp('/applications', {
      role: 'lawyer',
      handlers: { 'GET /applications': listHandler([item(1, 0), item(2, 0)]) },
    });
    const flagged = await screen.findByRole('link', { name: /J\. Smith2\b/ });
    await waitFor(() => expect(flagged.textContent).toContain('Needs your attention'));
    expect(flagged.getAttribute('href')).toBe('/applications/2/case');
    expect(screen.getByRole('link', { name: /J\. Smith1\b/ }).textContent).not.toContain('Needs your attention');
  });

  it('the header’s status links to what waits on the device, each item with where it is fixed', async () => {
    await db.drafts.bulkPut([
      {
        id: '1|application:2:case',
        userId: 1,
        key: 'application:2:case',
        value: {},
        baseVersion: 1,
        updatedAt: Date.now(),
        status: 'rejected',
        serverCodes: {},
        serverError: 'notEditable',
      },
      {
        id: '1|application:3:financial',
        userId: 1,
        key: 'application:3:financial',
        value: {},
        baseVersion: 1,
        updatedAt: Date.now(),
        status: 'editing',
      },
    ]);
    renderApp('/applications', { role: 'lawyer', handlers: { 'GET /applications': listHandler([item(2, 0)]) } });
    const status = await screen.findByTestId('sync-status');
    await waitFor(() => expect(status.textContent).toBe('Needs your attention'));
    await userEvent.click(within(status).getByRole('link'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Changes on this device' })).toBeTruthy();
    const attention = await screen.findByRole('region', { name: 'Needs your attention' });
    expect(within(attention).getByText('Application 2: Case details')).toBeTruthy();
    expect(within(attention).getByText('Not saved: This application can no longer be changed.')).toBeTruthy();
    expect(within(attention).getByRole('link', { name: 'fix it' }).getAttribute('href')).toBe('/applications/2/case');
    const unsaved = screen.getByRole('region', { name: 'Not saved yet' });
    expect(within(unsaved).getByText('Application 3: Financial details')).toBeTruthy();
    expect(within(unsaved).getByRole('link', { name: 'continue' }).getAttribute('href')).toBe('/applications/3/financial');
  });
});

describe('where a signed-in user starts', () => {
  it('a client with exactly one application goes straight to it', async () => {
    const { router } = renderApp('/', {
      role: 'customer',
      handlers: { 'GET /applications': listHandler([item(5, 0, { status: 'incomplete' })]) },
    });
    await waitFor(() => expect(currentUrl(router)).toMatch(/^\/applications\/5\//));
  });

  it('a client with several applications, and a lawyer, see the list', async () => {
    const client = renderApp('/', {
      role: 'customer',
      handlers: { 'GET /applications': listHandler([item(5, 0), item(6, 1)]) },
    });
    await waitFor(() => expect(currentUrl(client.router)).toBe('/applications'));
    client.unmount();
    localStorage.clear();
    const lawyer = renderApp('/', { role: 'lawyer', handlers: { 'GET /applications': listHandler([item(5, 0)]) } });
    await waitFor(() => expect(currentUrl(lawyer.router)).toBe('/applications'));
  });
});
