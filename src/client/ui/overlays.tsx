import { Component, lazy, Suspense, type ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { toastsAtom } from './toast-store';
import { modalQueueAtom } from './modal-store';
import { PlainModalHost, PlainToasts } from './plain-overlays';

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

/**
 * An overlay whose code could not be fetched shows its plain form instead (plain-overlays.tsx) until
 * the page is loaded again, rather than taking the screen down with it (docs/decisions.md 725).
 */
class WithoutItsCode extends Component<{ plain: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.plain : this.props.children;
  }
}

export function Overlays() {
  const hasToasts = useAtomValue(toastsAtom).length > 0;
  const hasModal = useAtomValue(modalQueueAtom).length > 0;
  return (
    <>
      {hasToasts ? (
        <WithoutItsCode plain={<PlainToasts />}>
          <Suspense fallback={null}>
            <Toaster />
          </Suspense>
        </WithoutItsCode>
      ) : null}
      {hasModal ? (
        <WithoutItsCode plain={<PlainModalHost />}>
          <Suspense fallback={null}>
            <ModalHost />
          </Suspense>
        </WithoutItsCode>
      ) : null}
    </>
  );
}
