// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { markUnsaved } from '../routing/unsaved-changes';
import { UpdatePrompt } from './update-prompt';
import { resetUpdateState, setUpdateAvailable, setUpdateSwitched } from './update-store';

const WAIT_MESSAGE = 'Save your changes first; the update will wait.';

function offerUpdate() {
  const apply = vi.fn();
  act(() => setUpdateAvailable(apply));
  return apply;
}

afterEach(() => {
  cleanup();
  act(() => {
    resetUpdateState();
    markUnsaved('drawdown-request', false);
    markUnsaved('client-form', false);
  });
});

describe('UpdatePrompt', () => {
  it('shows nothing until a new version is waiting', () => {
    render(<UpdatePrompt />);
    expect(screen.queryByText('A new version of the portal is available.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Update now' })).toBeNull();
  });

  it('announces the new version politely and offers Update now and Later', () => {
    render(<UpdatePrompt />);
    offerUpdate();
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(status.textContent).toContain('A new version of the portal is available.');
    expect(screen.getByRole('button', { name: 'Update now' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Later' })).toBeTruthy();
  });

  it('applies the update at once when nothing is unsaved', async () => {
    const user = userEvent.setup();
    render(<UpdatePrompt />);
    const apply = offerUpdate();
    await user.click(screen.getByRole('button', { name: 'Update now' }));
    expect(apply).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(WAIT_MESSAGE)).toBeNull();
  });

  it('never applies the update while changes are unsaved, and applies it once they are saved', async () => {
    const user = userEvent.setup();
    act(() => {
      markUnsaved('drawdown-request', true);
      markUnsaved('client-form', true);
    });
    render(<UpdatePrompt />);
    const apply = offerUpdate();

    await user.click(screen.getByRole('button', { name: 'Update now' }));
    expect(apply).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toContain(WAIT_MESSAGE);

    // One form saved, the other still dirty: keep waiting.
    act(() => markUnsaved('drawdown-request', false));
    expect(apply).not.toHaveBeenCalled();
    expect(screen.getByText(WAIT_MESSAGE)).toBeTruthy();

    act(() => markUnsaved('client-form', false));
    expect(apply).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(WAIT_MESSAGE)).toBeNull();

    // Typing again afterwards does not apply it a second time.
    act(() => markUnsaved('client-form', true));
    act(() => markUnsaved('client-form', false));
    expect(apply).toHaveBeenCalledTimes(1);
  });

  it('Later while waiting for a save cancels the update', async () => {
    const user = userEvent.setup();
    act(() => markUnsaved('drawdown-request', true));
    render(<UpdatePrompt />);
    const apply = offerUpdate();

    await user.click(screen.getByRole('button', { name: 'Update now' }));
    await user.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByText('A new version of the portal is available.')).toBeNull();

    act(() => markUnsaved('drawdown-request', false));
    expect(apply).not.toHaveBeenCalled();
  });

  it('offers a newer version again after Later', async () => {
    const user = userEvent.setup();
    render(<UpdatePrompt />);
    offerUpdate();
    await user.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByRole('button', { name: 'Update now' })).toBeNull();

    offerUpdate();
    expect(screen.getByRole('button', { name: 'Update now' })).toBeTruthy();
  });

  it('when another tab already switched to the new version, says the reload waits for unsaved changes', () => {
    act(() => markUnsaved('client-form', true));
    render(<UpdatePrompt />);
    act(() => setUpdateSwitched());
    expect(screen.getByRole('status').textContent).toContain('A new version of the portal is available.');
    expect(screen.getByText(WAIT_MESSAGE)).toBeTruthy();
    // Nothing left to choose: the old version is gone.
    expect(screen.queryByRole('button', { name: 'Update now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Later' })).toBeNull();
  });
});
