import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
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

/** The overlays' plain forms (plain-overlays.tsx), given by the signed-in shell that loads them. */
let plainForms: { ModalHost: ComponentType; Toasts: ComponentType } | null = null;

export function providePlainOverlays(forms: { ModalHost: ComponentType; Toasts: ComponentType }): void {
  plainForms = forms;
}

/**
 * An overlay whose code could not be fetched shows its plain form instead, until the page is loaded
 * again, rather than taking the screen down with it; a public page, which has none, shows nothing
 * (docs/decisions.md 725).
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

/** One overlay, while it has something to show: its own code, or its plain form without it. */
function Overlay({ shown, plain, children }: { shown: boolean; plain: ComponentType | undefined; children: ReactNode }) {
  if (!shown) return null;
  const Plain = plain;
  return (
    <WithoutItsCode plain={Plain ? <Plain /> : null}>
      <Suspense fallback={null}>{children}</Suspense>
    </WithoutItsCode>
  );
}

export function Overlays() {
  const hasToasts = useAtomValue(toastsAtom).length > 0;
  const hasModal = useAtomValue(modalQueueAtom).length > 0;
  return (
    <>
      <Overlay shown={hasToasts} plain={plainForms?.Toasts}>
        <Toaster />
      </Overlay>
      <Overlay shown={hasModal} plain={plainForms?.ModalHost}>
        <ModalHost />
      </Overlay>
    </>
  );
}
