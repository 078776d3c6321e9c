// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { useRef, useState } from 'react';
import { useConfirm, useInfo } from './modal-store';
import { Overlays } from './overlays';
import { useToast } from './toast-store';
import { markUnsaved } from './unsaved-changes';
import { MODAL_DELAY_MS } from '../../shared/rules/ui-timings';
import { renderApp } from '../test/render-app';

function Harness() {
  const confirm = useConfirm();
  const info = useInfo();
  const toast = useToast();
  const [answer, setAnswer] = useState('none');
  return (
    <>
      <button type="button" onClick={() => void confirm('Delete this file?').then((yes) => setAnswer(String(yes)))}>
        ask
      </button>
      <button type="button" onClick={() => void info({ title: 'Saved', message: 'All done.' }).then(() => setAnswer('ok'))}>
        tell
      </button>
      <button type="button" onClick={() => toast.unhandled()}>
        fail
      </button>
      <button type="button" onClick={() => toast.notify('Sent.')}>
        notify
      </button>
      <output>{answer}</output>
      <Overlays />
    </>
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

/** A record's action: 'approve' asks first, and once it is done the button goes. */
function ActionHarness({ named }: { named: boolean }) {
  const confirm = useConfirm();
  const [approved, setApproved] = useState(false);
  const status = useRef<HTMLSpanElement>(null);
  const approve = async () => {
    if (!(await confirm({ message: 'Approve?', ...(named ? { focusAfter: () => status.current } : {}) }))) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
    setApproved(true);
  };
  return (
    <main>
      <h1 tabIndex={-1}>Drawdown</h1>
      <span ref={status}>{approved ? 'approved' : 'requested'}</span>
      <section aria-labelledby="actions">
        <h2 id="actions">Actions</h2>
        {approved ? null : (
          <div>
            <button type="button" onClick={() => void approve()}>
              approve
            </button>
          </div>
        )}
      </section>
      <Overlays />
    </main>
  );
}

function renderAction(named: boolean) {
  const user = userEvent.setup();
  render(
    <Provider store={createStore()}>
      <ActionHarness named={named} />
    </Provider>,
  );
  return user;
}

describe('the focus after a confirmation (decision 461)', () => {
  it('goes back to the control that asked after Escape and after No', async () => {
    const user = renderAction(true);
    const approve = screen.getByRole('button', { name: 'approve' });
    await user.click(approve);
    await screen.findByRole('alertdialog', { name: 'Approve?' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.activeElement).toBe(approve));
    await user.click(approve);
    await user.click(await screen.findByRole('button', { name: 'No' }));
    await waitFor(() => expect(document.activeElement).toBe(approve));
  });

  it('goes to the place the screen names once Yes has done its work and the control is gone', async () => {
    const user = renderAction(true);
    await user.click(screen.getByRole('button', { name: 'approve' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('approved'));
    expect(document.activeElement?.getAttribute('tabindex')).toBe('-1');
  });

  it('without a named place, goes to the heading of the nearest section still there', async () => {
    const user = renderAction(false);
    await user.click(screen.getByRole('button', { name: 'approve' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Actions' })));
  });
});

describe('modals', () => {
  afterEach(() => markUnsaved('form', false));

  it('confirm answers true for Yes', async () => {
    const user = renderHarness();
    await user.click(screen.getByRole('button', { name: 'ask' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this file?' });
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('true')).toBeTruthy();
    expect(dialog.isConnected).toBe(false);
  });

  it('the second click of a double click on Yes does not reach what the modal covered', async () => {
    const user = renderHarness();
    const notify = screen.getByRole('button', { name: 'notify' });
    const notified = vi.fn();
    notify.addEventListener('click', notified);
    await user.click(screen.getByRole('button', { name: 'ask' }));
    await screen.findByRole('alertdialog', { name: 'Delete this file?' });
    // The first click answers and closes; the second of the double click lands on what was under it.
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }), { detail: 1 });
    fireEvent.click(notify, { detail: 2 });
    expect(await screen.findByText('true')).toBeTruthy();
    expect(notified).not.toHaveBeenCalled();
    // A click of its own goes through at once.
    await user.click(notify);
    expect(notified).toHaveBeenCalledTimes(1);
  });

  it('shows a modal 10 ms after it is asked for, not before (spec: modal delay)', async () => {
    const user = renderHarness();
    // Load the modal host's code first (it is a lazy chunk), so only the delay itself is timed.
    await user.click(screen.getByRole('button', { name: 'tell' }));
    await screen.findByRole('alertdialog', { name: 'Saved' });
    await user.click(screen.getByRole('button', { name: 'ok' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    vi.useFakeTimers();
    try {
      act(() => {
        fireEvent.click(screen.getByRole('button', { name: 'ask' }));
      });
      act(() => vi.advanceTimersByTime(MODAL_DELAY_MS - 1));
      expect(screen.queryByRole('alertdialog')).toBeNull();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.getByRole('alertdialog', { name: 'Delete this file?' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('confirm answers false for No and for Escape', async () => {
    const user = renderHarness();
    await user.click(screen.getByRole('button', { name: 'ask' }));
    await screen.findByRole('alertdialog');
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(await screen.findByText('false')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'ask' }));
    await screen.findByRole('alertdialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByText('false')).toBeTruthy();
  });

  it('info shows its title and message with ok', async () => {
    const user = renderHarness();
    await user.click(screen.getByRole('button', { name: 'tell' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Saved' });
    expect(dialog.textContent).toContain('All done.');
    await user.click(screen.getByRole('button', { name: 'ok' }));
    expect(await screen.findByText('ok')).toBeTruthy();
  });

  it('toasts carry the default titles', async () => {
    const user = renderHarness();
    await user.click(screen.getByRole('button', { name: 'fail' }));
    expect(await screen.findByText('Unhandled error. Please contact an administrator')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'notify' }));
    expect(await screen.findByText('Sent.')).toBeTruthy();
    expect(screen.getAllByText('Notification').length).toBeGreaterThan(0);
  });

  it('sign out asks first when a form has unsaved changes', async () => {
    const { user, calls } = renderApp('/applications', { role: 'lawyer' });
    await screen.findByRole('heading', { level: 1, name: 'Applications' });
    act(() => markUnsaved('form', true));

    await user.click(screen.getByRole('button', { name: 'sign out' }));
    await screen.findByRole('alertdialog', { name: 'Changes will not be saved. Are you sure want exit?' });
    await user.click(screen.getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(localStorage.getItem('token')).toBe('test-token');

    await user.click(screen.getByRole('button', { name: 'sign out' }));
    await screen.findByRole('alertdialog');
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/auth')).toBe(true));
  });

  it('sign out without unsaved changes goes straight to /sign-in without a return path', async () => {
    const { user, router } = renderApp('/loans', { role: 'admin' });
    await screen.findByRole('heading', { level: 1, name: 'Request Drawdown' });
    await user.click(screen.getByRole('button', { name: 'sign out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });
});
