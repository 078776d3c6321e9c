import { useEffect, useRef } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { closeModalAtom, modalQueueAtom } from './modal-store';
import { dismissToastAtom, TOAST_DURATION_MS, toastsAtom } from './toast-store';
import { returnFocus } from './focus-return';
import { providePlainOverlays } from './overlays';
import './plain-overlays.css';

/*
 * The overlays without their own code: what a screen shows when the modal host's or the toaster's
 * chunk cannot be fetched (a first visit that lost its connection before the service worker held
 * the build). Same words, same answers, on the browser's own <dialog> and a live region, so a
 * question asked offline is still asked and answered (docs/decisions.md 725). The signed-in shell
 * loads this module, which gives them to the overlays; the public pages stay without them.
 */

/** The first waiting modal in a native modal dialog: focus kept inside, Escape answers 'No' (or 'ok'). */
export function PlainModalHost() {
  const request = useAtomValue(modalQueueAtom)[0];
  const close = useSetAtom(closeModalAtom);
  const dialog = useRef<HTMLDialogElement>(null);
  const safeAnswer = useRef<HTMLButtonElement>(null);

  // Opened once in the page, then the first focus on the safe answer, as in the modal host.
  useEffect(() => {
    const element = dialog.current;
    if (!request || !element) return;
    if (!element.open) element.showModal?.();
    safeAnswer.current?.focus();
  }, [request]);

  if (!request) return null;
  const answer = (value: boolean) => {
    dialog.current?.close?.();
    close({ id: request.id, answer: value });
    returnFocus(request.origin, { landing: request.focusAfter, afterAction: request.kind === 'confirm' && value });
  };
  const titleId = `plain-modal-title-${request.id}`;
  return (
    <dialog
      ref={dialog}
      className="plain-modal"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        answer(request.kind === 'info');
      }}
    >
      <h2 id={titleId} className="plain-modal__title">
        {request.title ?? request.message}
      </h2>
      {request.title ? <p>{request.message}</p> : null}
      <div className="plain-modal__actions">
        {request.kind === 'confirm' ? (
          <>
            <button type="button" className="button button--primary" onClick={() => answer(true)}>
              Yes
            </button>
            <button ref={safeAnswer} type="button" className="button button--secondary" onClick={() => answer(false)}>
              No
            </button>
          </>
        ) : (
          <button ref={safeAnswer} type="button" className="button button--primary" onClick={() => answer(true)}>
            ok
          </button>
        )}
      </div>
    </dialog>
  );
}

/** The toasts as a live region: each read out, shown for its time, and closable. */
export function PlainToasts() {
  const toasts = useAtomValue(toastsAtom);
  const dismiss = useSetAtom(dismissToastAtom);
  // One timer per toast, from when it is first shown: a newer toast does not restart an older one's.
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const shown = new Set(toasts.map((toast) => toast.id));
    for (const [id, timer] of timers.current)
      if (!shown.has(id)) {
        clearTimeout(timer);
        timers.current.delete(id);
      }
    for (const toast of toasts)
      if (!timers.current.has(toast.id))
        timers.current.set(
          toast.id,
          setTimeout(() => dismiss(toast.id), TOAST_DURATION_MS[toast.type]),
        );
  }, [toasts, dismiss]);
  useEffect(() => {
    const running = timers.current;
    return () => {
      running.forEach((timer) => clearTimeout(timer));
      // Forgotten too: mounted again (React's strict mode does so at once), each toast gets a timer anew.
      running.clear();
    };
  }, []);
  return (
    <div className="plain-toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`plain-toast plain-toast--${toast.type}`}>
          <p className="plain-toast__title">{toast.title}</p>
          <p className="plain-toast__message">{toast.message}</p>
          <button type="button" className="button button--link" aria-label="Close" onClick={() => dismiss(toast.id)}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </div>
  );
}

providePlainOverlays({ ModalHost: PlainModalHost, Toasts: PlainToasts });
