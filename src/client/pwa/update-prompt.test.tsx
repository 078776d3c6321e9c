// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { markUnsaved } from '../ui/unsaved-changes';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UPDATE_SWITCHED_TEXT, UpdatePrompt } from './update-prompt';
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

  it('when another tab already switched to the new version, says the reload waits for the save, with a way on', async () => {
    const user = userEvent.setup();
    act(() => markUnsaved('client-form', true));
    render(<UpdatePrompt />);
    const reloadNow = vi.fn();
    act(() => setUpdateSwitched(reloadNow));
    expect(screen.getByRole('status').textContent).toContain(UPDATE_SWITCHED_TEXT);
    // Nothing left to choose: the old version is gone; typing not yet on the device is never lost.
    expect(screen.queryByRole('button', { name: 'Update now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reload now' })).toBeNull();

    // Once the typing is on the device (a step's draft), the user may reload at once.
    act(() => markUnsaved('client-form', false));
    await user.click(screen.getByRole('button', { name: 'Reload now' }));
    expect(reloadNow).toHaveBeenCalledTimes(1);

    // Or hide the banner: it never stays over the page without buttons.
    await user.click(screen.getByRole('button', { name: 'Hide' }));
    expect(screen.queryByText(UPDATE_SWITCHED_TEXT)).toBeNull();
  });

  it('is rendered in the page’s flow, not fixed over the form (decision 343)', () => {
    const css = readFileSync(path.join(process.cwd(), 'src/client/pwa/update-prompt.css'), 'utf8');
    expect(css).not.toMatch(/position:\s*fixed/);
    expect(css).not.toMatch(/position:\s*sticky/);
  });
});
