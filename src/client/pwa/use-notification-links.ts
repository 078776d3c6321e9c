import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { isOpenMessage, portalPath } from './push-message';

/**
 * Opens the page of a notification the person clicked, sent by the service worker to the window it
 * brought forward: the router navigates, so the page does not reload and a form with unsaved
 * changes still asks before it is left.
 */
export function useNotificationLinks(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!container) return;
    const onMessage = (event: MessageEvent) => {
      if (!isOpenMessage(event.data)) return;
      const path = portalPath(event.data.path, window.location.origin);
      if (path) void navigate(path);
    };
    container.addEventListener('message', onMessage);
    return () => container.removeEventListener('message', onMessage);
  }, [navigate]);
}
