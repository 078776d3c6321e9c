import { SESSION_IDLE_TIMEOUT_MS } from '../../shared/rules/limits';
import type { SignedOutReason } from './session';

const IDLE_HOURS = SESSION_IDLE_TIMEOUT_MS / 3_600_000;

/**
 * Why the sign-in page is shown when the person did not sign out themselves: the session ended
 * after the idle time (on this device or on the server), so they know it was not something they
 * did (docs/decisions.md 455). Null when there is nothing to explain.
 */
export function signedOutNotice(reason: SignedOutReason): string | null {
  switch (reason) {
    case 'expired':
      return `You were signed out after ${IDLE_HOURS} hours without activity, to keep your account safe. Please sign in again.`;
    case 'unauthorized':
      return 'Your session has ended. Please sign in again.';
    default:
      return null;
  }
}
