import { lazy, Suspense } from 'react';
import { useAtomValue } from 'jotai';
import { toastsAtom } from './toast-store';
import { modalQueueAtom } from './modal-store';

/* Radix code loads only when a toast or modal is first shown: the sign-in page stays light. */
const loadToaster = () => import('./toaster');
const loadModalHost = () => import('./modal-host');
const Toaster = lazy(loadToaster);
const ModalHost = lazy(loadModalHost);

/**
 * Fetches the overlays' code ahead of its first use. A signed-in screen calls it once idle, so a
 * confirmation asked after the connection has dropped finds its code already loaded, before the
 * service worker holds it (docs/decisions.md 464). A failure is left for the first use to meet.
 */
export function warmOverlays(): void {
  void loadModalHost().catch(() => undefined);
  void loadToaster().catch(() => undefined);
}

export function Overlays() {
  const hasToasts = useAtomValue(toastsAtom).length > 0;
  const hasModal = useAtomValue(modalQueueAtom).length > 0;
  return (
    <Suspense fallback={null}>
      {hasToasts ? <Toaster /> : null}
      {hasModal ? <ModalHost /> : null}
    </Suspense>
  );
}
