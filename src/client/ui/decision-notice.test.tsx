// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DecisionRefused, DecisionWaiting } from './decision-notice';
import { axeViolations } from './test-axe';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the notices of a decision sent through the outbox', () => {
  it('says a decision made offline waits on this device, as a status', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    render(<DecisionWaiting what="Your change ‘block loan’" />);
    const notice = screen.getByRole('status');
    expect(notice.textContent).toBe('Your change ‘block loan’ is kept on this device and will be sent once you are back online.');
    expect(await axeViolations()).toEqual([]);
  });

  it('online (the server slow or failing), says it waits for the server, not for a connection', () => {
    render(<DecisionWaiting what="Your decision ‘approve’" />);
    expect(screen.getByRole('status').textContent).toBe(
      'Your decision ‘approve’ is kept on this device until the server takes it. It is sent again by itself.',
    );
  });

  it('says why a decision was not made, as an alert, until dismissed', async () => {
    const onDismiss = vi.fn();
    render(
      <DecisionRefused
        what="Your change to £42,500.00"
        why="This was changed by someone else meanwhile."
        onDismiss={onDismiss}
      />,
    );
    const notice = screen.getByRole('alert');
    expect(screen.getByText(/was not made/).textContent).toBe(
      'Your change to £42,500.00 was not made: This was changed by someone else meanwhile.',
    );
    expect(notice.className).toContain('decision-notice--refused');
    expect(await axeViolations()).toEqual([]);
    const dismiss = screen.getByRole('button', { name: 'dismiss' });
    expect(notice.contains(dismiss)).toBe(true);
    await userEvent.click(dismiss);
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});
