import type { CSSProperties } from 'react';
import * as Toast from 'radix-ui/toast';
import { useAtomValue, useSetAtom } from 'jotai';
import { dismissToastAtom, TOAST_DURATION_MS, toastsAtom } from './toast-store';
import { useActionBarClearance } from './action-bars';
import './toaster.css';

export default function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  const dismiss = useSetAtom(dismissToastAtom);
  // Never over a page's action bar: the toasts stand above it while it is on screen.
  const clearance = useActionBarClearance();
  return (
    <Toast.Provider label="Notification">
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          className={`toast toast--${toast.type}`}
          // Errors interrupt (assertive); notices wait their turn (polite).
          type={toast.type === 'error' ? 'foreground' : 'background'}
          duration={TOAST_DURATION_MS[toast.type]}
          onOpenChange={(open) => {
            if (!open) dismiss(toast.id);
          }}
        >
          <Toast.Title className="toast__title">{toast.title}</Toast.Title>
          <Toast.Description className="toast__message">{toast.message}</Toast.Description>
          <Toast.Close className="toast__close" aria-label="Close">
            <span aria-hidden="true">×</span>
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="toast-viewport" style={{ '--toast-clearance': `${clearance}px` } as CSSProperties} />
    </Toast.Provider>
  );
}
