// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ClientInvitation } from './client-invitation';

// The lawyer corrects a client's email before they join, or invites them again (decision 344).

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function answer(status: number, body: unknown) {
  const calls: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      calls.push({ url: new URL(request.url).pathname, body: JSON.parse(await request.text()) as unknown });
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

describe('ClientInvitation', () => {
  it('corrects the email and sends the invitation again', async () => {
    const calls = answer(200, { email: 'nina@example.test' });
    const onSent = vi.fn();
    const user = userEvent.setup();
    render(<ClientInvitation applicationId={12} email="nina@exmple.test" onSent={onSent} />);
    expect(screen.getByText('Your client has not joined yet. The invitation was sent to nina@exmple.test.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Correct the email or send the invitation again' }));
    const field = screen.getByLabelText<HTMLInputElement>("Your client's email address");
    expect(field.value).toBe('nina@exmple.test');
    await user.clear(field);
    await user.type(field, 'nina@example.test{Enter}');
    await vi.waitFor(() => expect(onSent).toHaveBeenCalledWith('nina@example.test'));
    expect(calls).toEqual([{ url: '/api/applications/12/client-invitation', body: { email: 'nina@example.test' } }]);
    expect(screen.queryByLabelText("Your client's email address")).toBeNull();
  });

  it('shows the server’s refusal on the field, or in words when the client has joined', async () => {
    answer(400, { error: 'validation', fields: { email: 'login' } });
    const user = userEvent.setup();
    render(<ClientInvitation applicationId={12} email="a@example.test" onSent={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Correct the email or send the invitation again' }));
    await user.click(screen.getByRole('button', { name: 'Send the invitation' }));
    expect(await screen.findByText('This email is already in use')).toBeTruthy();

    answer(409, { error: 'clientJoined' });
    await user.click(screen.getByRole('button', { name: 'Send the invitation' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your client has already joined, so their email address can no longer be changed here.',
    );
  });
});
