// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { currentUrl, json, renderApp } from '../../test/render-app';

const lawyer = {
  id: 8,
  firstName: 'Laura',
  surname: 'Bennett',
  login: 'laura@hv.test',
  firmId: 3,
  firm: { id: 3, firmName: 'Harbour & Vale' },
  casesAmount: 1,
  state: 'active',
  abilities: { edit: true, delete: true },
};

const listHandlers = {
  'GET /lawyers/count': () => json(200, { total: 12, withActiveCases: 5 }),
  'GET /lawyers': () => json(200, { items: [lawyer], total: 12, page: 1, pageSize: 10 }),
};

describe('lawyers list', () => {
  it('shows the total on hub, those with active cases and the lawyers', async () => {
    renderApp('/lawyers', { role: 'admin', handlers: listHandlers });
    expect(await screen.findByRole('heading', { level: 1, name: 'Lawyers' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Total on hub').nextSibling?.textContent).toBe('12'));
    expect(screen.getByText('With active cases').nextSibling?.textContent).toBe('5');
    const item = await screen.findByRole('link', { name: /Laura Bennett/ });
    expect(item.getAttribute('href')).toBe('/lawyers/8');
    expect(item.textContent).toContain('Harbour & Vale');
    expect(item.textContent).toContain('1 active case');
    expect(screen.getByRole('link', { name: 'add new lawyer' }).getAttribute('href')).toBe('/lawyers/add');
  });

  it("a firm admin's 'add new lawyer' goes to their firm", async () => {
    renderApp('/lawyers', { role: 'firm', handlers: listHandlers });
    expect((await screen.findByRole('link', { name: 'add new lawyer' })).getAttribute('href')).toBe('/firms/10/add');
  });
});

describe('add lawyer', () => {
  it('staff choose the firm; every field is checked', async () => {
    const { user, calls, router } = renderApp('/lawyers/add', {
      role: 'admin',
      handlers: {
        ...listHandlers,
        'GET /firms': () =>
          json(200, {
            items: [
              {
                id: 3,
                firmName: 'Harbour & Vale',
                firstName: 'F',
                surname: 'H',
                login: 'f@h.test',
                casesAmount: 0,
                lawyersCount: 1,
              },
            ],
            total: 1,
            page: 1,
            pageSize: 100,
            lawyersCount: 1,
          }),
        'POST /lawyers': () => json(201, lawyer),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add lawyer' })).toBeTruthy();
    await user.type(screen.getByLabelText('First name'), 'Sam');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getAllByText('Required field')).toHaveLength(3);
    await screen.findByRole('option', { name: 'Harbour & Vale' });
    await user.selectOptions(screen.getByLabelText('Law firm'), '3');
    await user.type(screen.getByLabelText('Surname'), 'Cole');
    await user.type(screen.getByLabelText('Login'), 'sam@hv.test');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/lawyers'));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      firstName: 'Sam',
      surname: 'Cole',
      login: 'sam@hv.test',
      firmId: 3,
    });
  });
});

describe('edit lawyer', () => {
  it('keeps the login read-only and Save disabled until a change, then saves and goes to /lawyers', async () => {
    const { user, calls, router } = renderApp('/lawyers/8', {
      role: 'admin',
      handlers: {
        ...listHandlers,
        'GET /lawyers/8': () => json(200, lawyer),
        'POST /lawyers/update': () => json(200, { ...lawyer, surname: 'Benn' }),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit lawyer' })).toBeTruthy();
    const login = (await screen.findByLabelText('Login')) as HTMLInputElement;
    expect(login.value).toBe('laura@hv.test');
    expect(login.readOnly).toBe(true);
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.clear(screen.getByLabelText('Surname'));
    await user.type(screen.getByLabelText('Surname'), 'Benn');
    expect(save.disabled).toBe(false);
    await user.click(save);
    await waitFor(() => expect(currentUrl(router)).toBe('/lawyers'));
    // Only the change: a first name someone else saved meanwhile is not put back.
    expect(calls.find((call) => call.path === '/lawyers/update')?.body).toEqual({ lawyerId: 8, surname: 'Benn' });
  });

  it('shows a server field code on its field', async () => {
    const { user } = renderApp('/lawyers/8', {
      role: 'admin',
      handlers: {
        'GET /lawyers/8': () => json(200, lawyer),
        'POST /lawyers/update': () => json(400, { error: 'validation', fields: { firstName: 'tooLong' } }),
      },
    });
    await user.type(await screen.findByLabelText('First name'), 'x');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This entry is too long')).toBeTruthy();
  });

  it('asks before deleting; with active cases says why', async () => {
    const { user } = renderApp('/lawyers/8', {
      role: 'admin',
      handlers: { 'GET /lawyers/8': () => json(200, lawyer), 'DELETE /lawyers/8': () => json(400, { error: 'hasActiveCases' }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Are you sure you want to delete this lawyer?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText("The lawyer can't be deleted due to having active cases")).toBeTruthy();
  });

  it('after deleting goes to /lawyers', async () => {
    const { user, router } = renderApp('/lawyers/8', {
      role: 'firm',
      handlers: { ...listHandlers, 'GET /lawyers/8': () => json(200, lawyer), 'DELETE /lawyers/8': () => json(204) },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/lawyers'));
  });

  it('asks before leaving with unsaved changes', async () => {
    const { user, router } = renderApp('/lawyers/8', {
      role: 'admin',
      handlers: { ...listHandlers, 'GET /lawyers/8': () => json(200, lawyer) },
    });
    await user.type(await screen.findByLabelText('First name'), 'x');
    await user.click(screen.getByRole('link', { name: 'cancel' }));
    expect(await screen.findByText('Changes will not be saved. Are you sure want exit?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(currentUrl(router)).toBe('/lawyers/8');
  });

  it('an unknown lawyer is not found', async () => {
    renderApp('/lawyers/99', { role: 'firm' });
    expect(await screen.findByRole('heading', { level: 1, name: 'The page you were looking for doesn’t exist.' })).toBeTruthy();
  });
});
