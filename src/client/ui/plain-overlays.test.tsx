// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { StrictMode, useState } from 'react';
import { useConfirm } from './modal-store';
import { Overlays } from './overlays';
// As the signed-in shell does: the plain forms given to the overlays.
import './plain-overlays';
import { useToast } from './toast-store';

// A first visit whose connection dropped before the overlays' code came: both chunks fail to load.
vi.mock('./modal-host', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});
vi.mock('./toaster', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

function Harness() {
  const confirm = useConfirm();
  const toast = useToast();
  const [answer, setAnswer] = useState('none');
  return (
    <main>
      <h1>Loan</h1>
      <button type="button" onClick={() => void confirm('Request this drawdown?').then((yes) => setAnswer(String(yes)))}>
        request drawdown
      </button>
      <button type="button" onClick={() => toast.notify('Drawdown requested.')}>
        notify
      </button>
      <output>{answer}</output>
      <Overlays />
    </main>
  );
}

function renderHarness() {
  const user = userEvent.setup();
  render(
    <Provider store={createStore()}>
      <Harness />
    </Provider>,
  );
  return user;
}

describe('the overlays without their code', () => {
  // jsdom has <dialog> without its methods: open and close it as the browser does.
  beforeAll(() => {
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.removeAttribute('open');
    };
  });
  afterEach(cleanup);

  it('still asks a confirmation in the same words, and Yes and No answer it', async () => {
    const user = renderHarness();
    await user.click(screen.getByRole('button', { name: 'request drawdown' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Request this drawdown?' });
    expect(screen.getByRole('heading', { name: 'Loan' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(screen.getByText('false')).toBeTruthy();
    expect(dialog.isConnected).toBe(false);

    await user.click(screen.getByRole('button', { name: 'request drawdown' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('true')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('Escape answers No', async () => {
    const user = renderHarness();
    await user.click(screen.getByRole('button', { name: 'request drawdown' }));
    await screen.findByRole('alertdialog');
    screen.getByRole('alertdialog').dispatchEvent(new Event('cancel', { cancelable: true }));
    expect(await screen.findByText('false')).toBeTruthy();
  });

  it('keeps each toast for its own time: a newer one does not restart an older one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      render(
        <Provider store={createStore()}>
          <Harness />
        </Provider>,
      );
      await user.click(screen.getByRole('button', { name: 'notify' }));
      // Shown once the toaster's code has failed to load: its time starts then.
      await vi.waitFor(() => expect(screen.getAllByText('Drawdown requested.')).toHaveLength(1));
      await act(() => vi.advanceTimersByTimeAsync(3000));
      await user.click(screen.getByRole('button', { name: 'notify' }));
      expect(screen.getAllByText('Drawdown requested.')).toHaveLength(2);
      await act(() => vi.advanceTimersByTimeAsync(2100));
      expect(screen.getAllByText('Drawdown requested.')).toHaveLength(1);
      await act(() => vi.advanceTimersByTimeAsync(3000));
      expect(screen.queryByText('Drawdown requested.')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('still lets a toast go after its time when mounted twice, as strict mode does', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      render(
        <StrictMode>
          <Provider store={createStore()}>
            <Harness />
          </Provider>
        </StrictMode>,
      );
      await user.click(screen.getByRole('button', { name: 'notify' }));
      await vi.waitFor(() => expect(screen.getAllByText('Drawdown requested.')).toHaveLength(1));
      await act(() => vi.advanceTimersByTimeAsync(5200));
      expect(screen.queryByText('Drawdown requested.')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a toast in a live region, closable', async () => {
    const user = renderHarness();
    await user.click(screen.getByRole('button', { name: 'notify' }));
    expect(await screen.findByText('Drawdown requested.')).toBeTruthy();
    expect(screen.getByText('Notification')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('Drawdown requested.')).toBeNull();
  });
});
