import type { NavigateFunction } from 'react-router-dom';

/** An in-portal path (not the API, not another site): it opens inside the app. */
export function isPortalPath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/api/');
}

/**
 * Goes where the server sends the signer (a signing page): inside the app for a portal path, as a
 * page for any other address (another provider's signing site).
 */
export function openAddress(navigate: NavigateFunction, url: string): void {
  if (isPortalPath(url)) void navigate(url);
  else window.location.assign(url);
}
