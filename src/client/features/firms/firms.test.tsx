// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { currentUrl, json, renderApp } from '../../test/render-app';

const firm = {
  id: 3,
  firmName: 'Harbour & Vale',
  firstName: 'Fiona',
  surname: 'Hale',
  login: 'fiona@hv.test',
  casesAmount: 2,
  lawyersCount: 1,
  abilities: { edit: true, delete: true },
};
const lawyer = {
  id: 8,
  firstName: 'Laura',
  surname: 'Bennett',
  login: 'laura@hv.test',
  firmId: 3,
  firm: { id: 3, firmName: 'Harbour & Vale' },
  casesAmount: 2,
  state: 'active',
  abilities: { edit: true, delete: true },
};

const firmHandlers = {
  'GET /firms/3': () => json(200, firm),
  'GET /firms/3/loans/aggregate': () =>
    json(200, { loansSum: 123456.5, totalDrawdowns: 100, loansCount: 2, dateCustomerAccepted: null }),
  'GET /firms/3/lawyers': () => json(200, { items: [lawyer], total: 1, page: 1, pageSize: 10 }),
};

describe('law firms list', () => {
  it('shows the overview, the firms with their active cases and the two buttons', async () => {
    renderApp('/firms', {
      role: 'admin',
      handlers: {
        'GET /firms': () =>
          json(200, {
            items: [firm, { ...firm, id: 4, firmName: 'Quiet LLP', casesAmount: 0, lawyersCount: 0 }],
            total: 2,
            page: 1,
            pageSize: 10,
            lawyersCount: 7,
          }),
      },
    });
    const overview = await screen.findByRole('region', { name: 'Overview' });
    await waitFor(() => expect(within(overview).getByText('7')).toBeTruthy());
    expect(within(overview).getByText('Registered firms').nextSibling?.textContent).toBe('2');
    expect(within(overview).getByText('Total lawyers').nextSibling?.textContent).toBe('7');
    expect(screen.getByRole('link', { name: 'see lawyers' }).getAttribute('href')).toBe('/lawyers');
    expect(screen.getByRole('link', { name: 'add new firm' }).getAttribute('href')).toBe('/firms/add');
    const item = screen.getByRole('link', { name: /Harbour & Vale/ });
    expect(item.getAttribute('href')).toBe('/firms/3');
    expect(item.textContent).toContain('2 active cases');
    expect(screen.getByRole('link', { name: /Quiet LLP/ }).textContent).toContain('0 active cases');
  });

  it('pages with ?page= and shows page links', async () => {
    const { calls } = renderApp('/firms?page=2', {
      role: 'admin',
      handlers: { 'GET /firms': () => json(200, { items: [firm], total: 25, page: 2, pageSize: 10, lawyersCount: 1 }) },
    });
    expect(await screen.findByRole('link', { name: 'Page 3' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    expect(calls.some((call) => call.path === '/firms' && call.method === 'GET')).toBe(true);
  });
});

describe('add law firm', () => {
  it('validates with the spec messages and keeps Save disabled until something changed', async () => {
    const { user, calls } = renderApp('/firms/add', { role: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add Law Firm' })).toBeTruthy();
    const save = screen.getByRole('button', { name: 'save' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('Login'), 'not-an-email');
    await user.tab();
    expect(await screen.findByText('Invalid email format - please check your entry')).toBeTruthy();
    expect((save as HTMLButtonElement).disabled).toBe(false);
    await user.click(save);
    expect(screen.getAllByText('Required field')).toHaveLength(3);
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('shows the server field codes on their fields', async () => {
    const { user } = renderApp('/firms/add', {
      role: 'admin',
      handlers: { 'POST /firms': () => json(400, { error: 'validation', fields: { login: 'addressUsed' } }) },
    });
    await user.type(await screen.findByLabelText('Firm name'), 'New Firm');
    await user.type(screen.getByLabelText('First name'), 'Ann');
    await user.type(screen.getByLabelText('Surname'), 'Lee');
    await user.type(screen.getByLabelText('Login'), 'ann@new.test');
    await user.click(screen.getByRole('button', { name: 'save' }));
    const message = await screen.findByText('This address has already been used');
    expect(screen.getByLabelText('Login').getAttribute('aria-describedby')).toContain(message.id);
  });

  it('creates the firm, says so and goes to /firms', async () => {
    const { user, calls, router } = renderApp('/firms/add', {
      role: 'admin',
      handlers: {
        'POST /firms': () => json(201, { ...firm, id: 9 }),
        'GET /firms': () => json(200, { items: [], total: 0, page: 1, pageSize: 10, lawyersCount: 0 }),
      },
    });
    await user.type(await screen.findByLabelText('Firm name'), ' New Firm ');
    await user.type(screen.getByLabelText('First name'), 'Ann');
    await user.type(screen.getByLabelText('Surname'), 'Lee');
    await user.type(screen.getByLabelText('Login'), 'Ann@New.test');
    await user.click(screen.getByRole('button', { name: 'save' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/firms'));
    expect(calls.find((call) => call.method === 'POST' && call.path === '/firms')?.body).toEqual({
      firmName: 'New Firm',
      firstName: 'Ann',
      surname: 'Lee',
      login: 'ann@new.test',
    });
    expect(await screen.findByText(/The law firm has been added/)).toBeTruthy();
  });
});

describe('adding a law firm with no connection', () => {
  it('says there is none, then, once the connection is back, that Save is needed again', async () => {
    let reachable = false;
    const { user } = renderApp('/firms/add', {
      role: 'admin',
      handlers: {
        'POST /firms': () => {
          if (!reachable) throw new TypeError('Failed to fetch');
          return json(201, { ...firm, id: 9 });
        },
      },
    });
    await user.type(await screen.findByLabelText('Firm name'), 'New Firm');
    await user.type(screen.getByLabelText('First name'), 'Ann');
    await user.type(screen.getByLabelText('Surname'), 'Lee');
    await user.type(screen.getByLabelText('Login'), 'ann@new.test');
    await user.click(screen.getByRole('button', { name: 'save' }));
    expect(await screen.findByText('No connection. Please check your connection and try again.')).toBeTruthy();

    reachable = true;
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText('You are back online. Save again to send your changes.')).toBeTruthy();
    expect(screen.queryByText('No connection. Please check your connection and try again.')).toBeNull();
    // The typing is still there.
    expect((screen.getByLabelText('Firm name') as HTMLInputElement).value).toBe('New Firm');
  });
});

describe('law firm page', () => {
  it('shows the counts, the total loans offered, the lawyers and add new lawyer', async () => {
    renderApp('/firms/3', { role: 'admin', handlers: firmHandlers });
    expect(await screen.findByText('£123,456.50')).toBeTruthy();
    expect(screen.getByText('Registered lawyers').nextSibling?.textContent).toBe('1');
    const item = await screen.findByRole('link', { name: /Laura Bennett/ });
    expect(item.getAttribute('href')).toBe('/lawyers/8');
    expect(item.textContent).toContain('2 active cases');
    expect(screen.getByRole('link', { name: 'add new lawyer' }).getAttribute('href')).toBe('/firms/3/add');
  });

  it('opens the details, edits, saves only a change, and keeps the login read-only', async () => {
    const { user, calls } = renderApp('/firms/3', {
      role: 'admin',
      handlers: { ...firmHandlers, 'POST /firms/update': () => json(200, { ...firm, firmName: 'Harbour Vale' }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Firm - details' }));
    const name = screen.getByLabelText('Firm name') as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Harbour & Vale'));
    expect(name.disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'edit' }));
    expect((screen.getByLabelText('Login') as HTMLInputElement).readOnly).toBe(true);
    const save = screen.getByRole('button', { name: 'save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.clear(name);
    await user.tab();
    expect(await screen.findByText('Required field')).toBeTruthy();
    await user.type(name, 'Harbour Vale');
    expect(save.disabled).toBe(false);
    await user.click(save);
    await waitFor(() =>
      // Only the change: what the page merely showed is not sent back over someone else's save.
      expect(calls.find((call) => call.path === '/firms/update')?.body).toEqual({ firmId: 3, firmName: 'Harbour Vale' }),
    );
    expect(await screen.findByRole('button', { name: 'edit' })).toBeTruthy();
  });

  it('shows the field codes of a 400 on the update on their fields (spec section 8)', async () => {
    const { user } = renderApp('/firms/3', {
      role: 'admin',
      handlers: {
        ...firmHandlers,
        'POST /firms/update': () => json(400, { error: 'validation', fields: { firmName: 'tooLong', surname: 'required' } }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Firm - details' }));
    await user.click(screen.getByRole('button', { name: 'edit' }));
    const name = screen.getByLabelText('Firm name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Harbour & Vale'));
    await user.type(name, ' Partners');
    await user.click(screen.getByRole('button', { name: 'save' }));
    const message = await screen.findByText('This entry is too long');
    expect(name.getAttribute('aria-describedby')).toContain(message.id);
    expect(screen.getByLabelText('Surname').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Please check the highlighted fields')).toBeTruthy();
    // Still editing, so the user can fix it.
    expect(screen.getByRole('button', { name: 'save' })).toBeTruthy();
  });

  it('asks before leaving while the details hold unsaved changes', async () => {
    const { user, router } = renderApp('/firms/3', { role: 'admin', handlers: firmHandlers });
    await user.click(await screen.findByRole('button', { name: 'Firm - details' }));
    await user.click(screen.getByRole('button', { name: 'edit' }));
    const name = screen.getByLabelText('Firm name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Harbour & Vale'));
    await user.type(name, ' X');
    await user.click(screen.getByRole('link', { name: 'add new lawyer' }));
    expect(await screen.findByText('Changes will not be saved. Are you sure want exit?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(currentUrl(router)).toBe('/firms/3');
  });

  it('cancel puts the saved values back', async () => {
    const { user } = renderApp('/firms/3', { role: 'admin', handlers: firmHandlers });
    await user.click(await screen.findByRole('button', { name: 'Firm - details' }));
    await user.click(screen.getByRole('button', { name: 'edit' }));
    const name = screen.getByLabelText('Firm name') as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Harbour & Vale'));
    await user.type(name, ' X');
    await user.click(screen.getByRole('button', { name: 'cancel' }));
    expect(name.value).toBe('Harbour & Vale');
  });

  it('asks before deleting and shows why a firm with active cases cannot go', async () => {
    const { user, calls } = renderApp('/firms/3', {
      role: 'admin',
      handlers: { ...firmHandlers, 'DELETE /firms/3': () => json(400, { error: 'hasActiveCases' }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Firm - details' }));
    await user.click(screen.getByRole('button', { name: 'delete' }));
    expect(await screen.findByText('Are you sure you want to delete this law firm?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'delete' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText("The law firm can't be deleted due to its lawyers having active cases")).toBeTruthy();
  });

  it('offers no delete while the firm has active cases, and says why (decision 457)', async () => {
    const { user } = renderApp('/firms/3', {
      role: 'admin',
      handlers: { ...firmHandlers, 'GET /firms/3': () => json(200, { ...firm, abilities: { edit: true, delete: false } }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Firm - details' }));
    expect(await screen.findByText("The law firm can't be deleted due to its lawyers having active cases")).toBeTruthy();
    expect(screen.getByRole('button', { name: 'edit' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'delete' })).toBeNull();
  });

  it('after deleting goes to /firms', async () => {
    const { user, router } = renderApp('/firms/3', {
      role: 'admin',
      handlers: {
        ...firmHandlers,
        'DELETE /firms/3': () => json(204),
        'GET /firms': () => json(200, { items: [], total: 0, page: 1, pageSize: 10, lawyersCount: 0 }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Firm - details' }));
    await user.click(screen.getByRole('button', { name: 'delete' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/firms'));
    expect(await screen.findByText('The law firm has been deleted.')).toBeTruthy();
  });

  it('a firm admin reads their own firm without edit or delete', async () => {
    // The server says what the caller may do: its own admin reads the firm, staff change it.
    const readOnly = { ...firm, abilities: { edit: false, delete: false } };
    const { user } = renderApp('/firms/3', {
      role: 'firm',
      handlers: { ...firmHandlers, 'GET /firms/3': () => json(200, readOnly) },
    });
    await user.click(await screen.findByRole('button', { name: 'Firm - details' }));
    expect(screen.queryByRole('button', { name: 'edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'delete' })).toBeNull();
    expect(screen.getByRole('link', { name: 'add new lawyer' })).toBeTruthy();
  });

  it("another firm's page is not found", async () => {
    renderApp('/firms/4', { role: 'firm', handlers: { 'GET /firms/4': () => json(404, { error: 'notFound' }) } });
    expect(await screen.findByRole('heading', { level: 1, name: 'The page you were looking for doesn’t exist.' })).toBeTruthy();
  });
});

describe('add new lawyer under a firm', () => {
  it('adds the lawyer to this firm and returns to the firm page', async () => {
    const { user, calls, router } = renderApp('/firms/3/add', {
      role: 'firm',
      handlers: { ...firmHandlers, 'POST /lawyers': () => json(201, lawyer) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add new Lawyer' })).toBeTruthy();
    expect(await screen.findByText('Harbour & Vale')).toBeTruthy();
    expect(screen.queryByLabelText('Law firm')).toBeNull();
    await user.type(screen.getByLabelText('First name'), 'Sam');
    await user.type(screen.getByLabelText('Surname'), 'Cole');
    await user.type(screen.getByLabelText('Login'), 'sam@hv.test');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/firms/3'));
    expect(calls.find((call) => call.method === 'POST' && call.path === '/lawyers')?.body).toEqual({
      firstName: 'Sam',
      surname: 'Cole',
      login: 'sam@hv.test',
      firmId: 3,
    });
  });
});
