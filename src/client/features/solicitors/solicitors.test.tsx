// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { currentUrl, json, renderApp } from '../../test/render-app';

const solicitor = {
  id: 4,
  name: 'Greenway Legal Advice',
  address: { postcode: 'SW1A 2AA', city: 'London' },
  contactNumber: '020 7946 0321',
  email: 'advice@greenway.test',
  fee: 250,
  deliveryMethod: 'Video call',
  casesAmount: 3,
  state: 'active',
  abilities: { edit: true, delete: true },
};
const list = { 'GET /solicitors': () => json(200, { items: [solicitor], total: 6, page: 1, pageSize: 10, withActiveCases: 2 }) };

describe('solicitors list', () => {
  it('shows the registered count, those with active cases and the solicitors', async () => {
    renderApp('/solicitors', { role: 'admin', handlers: list });
    const item = await screen.findByRole('link', { name: /Greenway Legal Advice/ });
    expect(item.getAttribute('href')).toBe('/solicitors/4');
    expect(item.textContent).toContain('London, SW1A 2AA');
    expect(item.textContent).toContain('3 active cases');
    expect(screen.getByText('Registered').nextSibling?.textContent).toBe('6');
    expect(screen.getByText('With active cases').nextSibling?.textContent).toBe('2');
    expect(screen.getByRole('link', { name: 'add new solicitor' }).getAttribute('href')).toBe('/solicitors/add');
  });
});

describe('add solicitor', () => {
  it("is titled 'Add lawyer' with the form 'Add new solicitor' and checks every field", async () => {
    const { user, calls } = renderApp('/solicitors/add', { role: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add new solicitor' })).toBeTruthy();
    await waitFor(() => expect(document.title).toMatch(/^Add lawyer/));
    await user.type(screen.getByLabelText('Email'), 'nope');
    await user.type(screen.getByLabelText('Contact number'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Invalid email format - please check your entry')).toBeTruthy();
    expect(screen.getByText('Invalid phone format - please check your entry')).toBeTruthy();
    // name, the address (at least one part), fee, delivery method
    expect(screen.getAllByText('Required field')).toHaveLength(4);
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('sends the address as its non-empty parts and the fee as a number, then goes to /solicitors', async () => {
    const { user, calls, router } = renderApp('/solicitors/add', {
      role: 'admin',
      handlers: { ...list, 'POST /solicitors': () => json(201, solicitor) },
    });
    await user.type(await screen.findByLabelText('Name'), 'Greenway Legal Advice');
    await user.type(screen.getByLabelText('Postcode'), 'SW1A 2AA');
    await user.type(screen.getByLabelText('City'), 'London');
    await user.type(screen.getByLabelText('Email'), 'advice@greenway.test');
    await user.type(screen.getByLabelText('Contact number'), '020 7946 0321');
    await user.type(screen.getByLabelText('Fee'), '£1,250.5');
    await user.type(screen.getByLabelText('Delivery method'), 'Video call');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/solicitors'));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Greenway Legal Advice',
      address: { postcode: 'SW1A 2AA', city: 'London' },
      contactNumber: '020 7946 0321',
      email: 'advice@greenway.test',
      fee: 1250.5,
      deliveryMethod: 'Video call',
    });
    expect(await screen.findByText('The solicitor has been added.')).toBeTruthy();
  });

  it('shows the server field codes on their fields', async () => {
    const { user } = renderApp('/solicitors/add', {
      role: 'admin',
      handlers: { 'POST /solicitors': () => json(400, { error: 'validation', fields: { email: 'addressUsed' } }) },
    });
    await user.type(await screen.findByLabelText('Name'), 'A');
    await user.type(screen.getByLabelText('City'), 'Leeds');
    await user.type(screen.getByLabelText('Email'), 'a@b.test');
    await user.type(screen.getByLabelText('Contact number'), '0113 496 0000');
    await user.type(screen.getByLabelText('Fee'), '100');
    await user.type(screen.getByLabelText('Delivery method'), 'Phone');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This address has already been used')).toBeTruthy();
  });

  it('puts a code for a part of the address on that part', async () => {
    const { user } = renderApp('/solicitors/add', {
      role: 'admin',
      handlers: { 'POST /solicitors': () => json(400, { error: 'validation', fields: { 'address.postcode': 'tooLong' } }) },
    });
    await user.type(await screen.findByLabelText('Name'), 'A');
    await user.type(screen.getByLabelText('Postcode'), 'LS1 1AA');
    await user.type(screen.getByLabelText('Email'), 'a@b.test');
    await user.type(screen.getByLabelText('Contact number'), '0113 496 0000');
    await user.type(screen.getByLabelText('Fee'), '100');
    await user.type(screen.getByLabelText('Delivery method'), 'Phone');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const message = await screen.findByText('This entry is too long');
    expect(screen.getByLabelText('Postcode').getAttribute('aria-describedby')).toContain(message.id);
    expect(screen.getByText('Please check the highlighted fields')).toBeTruthy();
  });
});

describe('update solicitor', () => {
  const edit = { 'GET /solicitors/4': () => json(200, solicitor) };

  it("is titled 'Update solicitor', the email read-only, Save only after a change", async () => {
    const { user, calls, router } = renderApp('/solicitors/4', {
      role: 'admin',
      handlers: { ...list, ...edit, 'POST /solicitors/update': () => json(200, solicitor) },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Update solicitor' })).toBeTruthy();
    const email = (await screen.findByLabelText('Email')) as HTMLInputElement;
    expect(email.readOnly).toBe(true);
    expect((screen.getByLabelText('Fee') as HTMLInputElement).value).toBe('250.00');
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.type(screen.getByLabelText('Street'), 'Greycoat Place');
    await user.click(save);
    await waitFor(() => expect(currentUrl(router)).toBe('/solicitors'));
    // Only the change: the address, whole, as one of its parts changed.
    expect(calls.find((call) => call.path === '/solicitors/update')?.body).toEqual({
      solicitorId: 4,
      address: { postcode: 'SW1A 2AA', street: 'Greycoat Place', city: 'London' },
    });
  });

  it('asks before deleting and shows the spec message for active cases', async () => {
    const { user } = renderApp('/solicitors/4', {
      role: 'admin',
      handlers: { ...edit, 'DELETE /solicitors/4': () => json(400, { error: 'hasActiveCases' }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Are you sure you want to delete this solicitor?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText("The solicitor can't be deleted due to having active cases")).toBeTruthy();
  });

  it('after deleting goes to /solicitors', async () => {
    const { user, router, calls } = renderApp('/solicitors/4', {
      role: 'admin',
      handlers: { ...list, ...edit, 'DELETE /solicitors/4': () => json(204) },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/solicitors'));
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/solicitors/4')).toBe(true);
  });
});
