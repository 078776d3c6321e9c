import { afterEach, describe, expect, it, vi } from 'vitest';
import { isUnloadAllowed, markLeaveGuard, markUnsaved } from '../ui/unsaved-changes';
import { claimIfUncontrolled, reloadOnUpdate, type ControllerSource } from './register';
import { getUpdateState, markAcceptedHere, resetUpdateState } from './update-store';

/** navigator.serviceWorker as far as reloadOnUpdate looks at it. */
function fakeContainer(controller: unknown): ControllerSource & { controller: unknown; takeOver: () => void } {
  const target = new EventTarget() as EventTarget & { controller: unknown; takeOver: () => void };
  target.controller = controller;
  target.takeOver = () => {
    target.controller = { worker: 'new' };
    target.dispatchEvent(new Event('controllerchange'));
  };
  return target;
}

/** Lets the promise chain after a controllerchange run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  markUnsaved('drawdown-request', false);
  markLeaveGuard('case-step', false);
  resetUpdateState();
});

describe('claimIfUncontrolled', () => {
  it('asks the active worker to take a page it does not control', async () => {
    const postMessage = vi.fn();
    await claimIfUncontrolled({ controller: null, ready: Promise.resolve({ active: { postMessage } }) });
    expect(postMessage).toHaveBeenCalledWith({ type: 'CLAIM' });
  });

  it('asks nothing of a page already controlled', async () => {
    const postMessage = vi.fn();
    await claimIfUncontrolled({ controller: {}, ready: Promise.resolve({ active: { postMessage } }) });
    expect(postMessage).not.toHaveBeenCalled();
  });
});

describe('reloadOnUpdate', () => {
  it('does not reload when the first worker claims a page that had none (first visit)', async () => {
    const container = fakeContainer(null);
    const reload = vi.fn();
    reloadOnUpdate(container, reload);
    container.takeOver();
    await settle();
    expect(reload).not.toHaveBeenCalled();
    expect(getUpdateState().switched).toBe(false);
  });

  it('reloads at once when a new worker takes over and nothing is unsaved', async () => {
    const container = fakeContainer({ worker: 'old' });
    const reload = vi.fn();
    reloadOnUpdate(container, reload);
    container.takeOver();
    await settle();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('waits while a form holds unsaved changes (another tab accepted the update), then reloads once', async () => {
    const container = fakeContainer({ worker: 'old' });
    const reload = vi.fn();
    markUnsaved('drawdown-request', true);
    reloadOnUpdate(container, reload);

    container.takeOver();
    await settle();
    expect(reload).not.toHaveBeenCalled();
    // The prompt now says why the page waits.
    expect(getUpdateState()).toMatchObject({ available: true, switched: true });

    // A second change of worker while waiting does not queue a second reload.
    container.takeOver();
    markUnsaved('drawdown-request', false);
    await settle();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('after a first visit was claimed, a later update reloads', async () => {
    const container = fakeContainer(null);
    const reload = vi.fn();
    reloadOnUpdate(container, reload);
    container.takeOver();
    container.takeOver();
    await settle();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('accepted in another tab, waits until this tab’s forms are saved (no leave question), then reloads', async () => {
    const container = fakeContainer({ worker: 'old' });
    const reload = vi.fn();
    // A step form with typing kept on the device but not saved: its leave question is armed.
    markLeaveGuard('case-step', true);
    reloadOnUpdate(container, reload);
    container.takeOver();
    await settle();
    expect(reload).not.toHaveBeenCalled();
    expect(getUpdateState().reloadNow).toBeTypeOf('function');

    markLeaveGuard('case-step', false);
    await settle();
    expect(reload).toHaveBeenCalledTimes(1);
    // The reload is the update's: nothing is asked on the way out.
    expect(isUnloadAllowed()).toBe(true);
  });

  it('accepted in this tab, reloads at once when the typing is on the device', async () => {
    const container = fakeContainer({ worker: 'old' });
    const reload = vi.fn();
    markLeaveGuard('case-step', true);
    reloadOnUpdate(container, reload);
    markAcceptedHere();
    container.takeOver();
    await settle();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(getUpdateState().switched).toBe(false);
  });
});
