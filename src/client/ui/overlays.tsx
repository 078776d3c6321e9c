import { lazy, Suspense } from 'react';
import { useAtomValue } from 'jotai';
import { toastsAtom } from './toast-store';
import { modalQueueAtom } from './modal-store';

/* Radix code loads only when a toast or modal is first shown: the sign-in page stays light. */
const Toaster = lazy(() => import('./toaster'));
const ModalHost = lazy(() => import('./modal-host'));

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
