// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { currentUrl, json, renderApp } from '../../test/render-app';

const client = {
  id: 7,
  applicationId: 21,
  email: 'chris@demo.test',
  firstName: 'Chris',
  lastName: 'Walker',
  birthDay: '1980-03-09',
  contactNumber: '07700 900123',
  status: 'customerAccepted',
  activeCases: 1,
  abilities: { edit: true, resetPassword: true },
};
const refused = {
  ...client,
  id: 8,
  applicationId: 22,
  email: 'tom@demo.test',
  firstName: 'Tom',
  lastName: 'Hughes',
  status: 'providerRejected',
  activeCases: 0,
};
const list = {
  'GET /clients': () => json(200, { items: [client, refused], total: 8, page: 1, pageSize: 10, withActiveCases: 5 }),
};
const edit = { 'GET /clients/7': () => json(200, client) };

describe('clients list', () => {
  it('shows registered clients, those with active cases and the clients, each with what their case is', async () => {
    renderApp('/clients', { role: 'lawyer', handlers: list });
    const item = await screen.findByRole('link', { name: /Chris Walker/ });
    expect(item.getAttribute('href')).toBe('/clients/7');
    expect(item.textContent).toContain('Active case: client accepted');
    // Not '0 active cases': the one case, refused (decision 448).
    expect(screen.getByRole('link', { name: /Tom Hughes/ }).textContent).toContain('Case ended: provider rejected');
    expect(screen.getByText('Registered clients').nextSibling?.textContent).toBe('8');
    expect(screen.getByText('Clients with active cases').nextSibling?.textContent).toBe('5');
  });
});

describe('edit client', () => {
  it('offers Save and Reset password only as the record’s abilities say', async () => {
    const readOnly = { ...client, abilities: { edit: false, resetPassword: false } };
    renderApp('/clients/7', { role: 'admin', handlers: { ...list, 'GET /clients/7': () => json(200, readOnly) } });
    expect(await screen.findByLabelText('First name')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset password' })).toBeNull();
  });

  it('shows the email disabled and the date of birth; Save only after a change; saves to /clients', async () => {
    const { user, calls, router } = renderApp('/clients/7', {
      role: 'admin',
      handlers: { ...list, ...edit, 'POST /clients/update': () => json(200, client) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit client' })).toBeTruthy();
    expect(((await screen.findByLabelText('Email')) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Day') as HTMLSelectElement).value).toBe('9');
    expect((screen.getByLabelText('Month') as HTMLSelectElement).value).toBe('3');
    expect((screen.getByLabelText('Year') as HTMLSelectElement).value).toBe('1980');
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.selectOptions(screen.getByLabelText('Day'), '10');
    expect(save.disabled).toBe(false);
    await user.click(save);
    await waitFor(() => expect(currentUrl(router)).toBe('/clients'));
    // Only the change: the date of birth, from its three fields.
    expect(calls.find((call) => call.path === '/clients/update')?.body).toEqual({ applicationId: 21, birthDay: '1980-03-10' });
  });

  it('checks the fields with the spec messages', async () => {
    const { user, calls } = renderApp('/clients/7', { role: 'admin', handlers: edit });
    const phone = await screen.findByLabelText('Phone number');
    await user.clear(screen.getByLabelText('First name'));
    await user.clear(phone);
    await user.type(phone, 'call me');
    // A day the month does not have is never offered (decision 437): no 31 February to refuse.
    await user.selectOptions(screen.getByLabelText('Day'), '31');
    const february = within(screen.getByLabelText('Month')).getByRole<HTMLOptionElement>('option', { name: '02 - February' });
    expect(february.disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Required field')).toBeTruthy();
    expect(screen.getByText('Invalid phone format - please check your entry')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/clients/update')).toHaveLength(0);
  });

  it('shows the server field codes on their fields', async () => {
    const { user } = renderApp('/clients/7', {
      role: 'admin',
      handlers: {
        ...edit,
        'POST /clients/update': () =>
          json(400, { error: 'validation', fields: { contactNumber: 'phone', birthDay: 'futureDate' } }),
      },
    });
    await user.type(await screen.findByLabelText('Last name'), 's');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Invalid phone format - please check your entry')).toBeTruthy();
    expect(screen.getByText('This date cannot be in the future')).toBeTruthy();
  });

  it('asks before leaving with unsaved changes', async () => {
    const { user, router } = renderApp('/clients/7', { role: 'admin', handlers: { ...edit, ...list } });
    await user.type(await screen.findByLabelText('First name'), 'x');
    await user.click(screen.getByRole('link', { name: 'cancel' }));
    expect(await screen.findByText('Changes will not be saved. Are you sure want exit?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/clients'));
  });

  it("'Reset password' asks first, then sends the client's email and says so", async () => {
    const { user, calls } = renderApp('/clients/7', {
      role: 'admin',
      handlers: { ...edit, 'POST /clients/reset-password': () => json(204) },
    });
    await user.click(await screen.findByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Are you sure you want to reset the password of this client?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(calls.filter((call) => call.path === '/clients/reset-password')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('A password reset link has been sent to the client.')).toBeTruthy();
    expect(calls.find((call) => call.path === '/clients/reset-password')?.body).toEqual({ email: 'chris@demo.test' });
  });

  it('a refused reset (429) shows the too-many-attempts text', async () => {
    const { user } = renderApp('/clients/7', {
      role: 'admin',
      handlers: { ...edit, 'POST /clients/reset-password': () => json(429, { error: 'tooManyAttempts', retryAfter: 900 }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Reset password' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Too many attempts. Please wait a few minutes and try again.')).toBeTruthy();
  });
});
