import { describe, expect, it } from 'vitest';
import { signedOutNotice } from './signed-out-notice';

describe('why sign-in is asked for again (decision 455)', () => {
  it('explains an idle sign-out and an ended session; nothing after signing out or on a first visit', () => {
    expect(signedOutNotice('expired')).toBe(
      'You were signed out after 30 hours without activity, to keep your account safe. Please sign in again.',
    );
    expect(signedOutNotice('unauthorized')).toBe('Your session has ended. Please sign in again.');
    expect(signedOutNotice('signedOut')).toBeNull();
    expect(signedOutNotice('none')).toBeNull();
  });
});
