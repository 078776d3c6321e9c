import { isOnline } from '../api/connection';

/**
 * When a change kept on this device goes (decision 735): offline, once the connection is back;
 * online (the server slow to answer, or failing and tried again), once the server takes it.
 */
export function whenSent(): string {
  return isOnline() ? 'as soon as the server takes it' : 'when you are back online';
}
