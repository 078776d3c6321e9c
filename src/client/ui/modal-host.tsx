import { useEffect, useRef, useState } from 'react';
import * as AlertDialog from 'radix-ui/alert-dialog';
import { useAtomValue, useSetAtom } from 'jotai';
import { closeModalAtom, modalQueueAtom, type ModalRequest } from './modal-store';
import { returnFocus } from './focus-return';
import { MODAL_DELAY_MS, TRAILING_CLICK_MS } from '../../shared/rules/ui-timings';
import './button.css';
import './modal.css';

/**
 * The second click of a double click on a modal's button would land on whatever the modal covered
 * (a link of the list under it, say): once the modal has gone, a click that continues it (the
 * browser counts it as the second of a multi-click: detail 2 or more) within TRAILING_CLICK_MS is
 * stopped before the page sees it. A click of its own (detail 1) goes through; so does everything
 * after a button pressed by keyboard (detail 0).
 */
export function swallowTrailingClick(event: { detail: number }): void {
  if (event.detail === 0) return;
  const stop = (next: MouseEvent) => {
    remove();
    if (next.detail < 2) return;
    next.preventDefault();
    next.stopPropagation();
  };
  const remove = () => {
    window.clearTimeout(timer);
    window.removeEventListener('click', stop, true);
  };
  const timer = window.setTimeout(remove, TRAILING_CLICK_MS);
  window.addEventListener('click', stop, true);
}

/**
 * Shows the first waiting modal after the spec's 10 ms delay. An alert dialog: focus is trapped,
 * Escape answers 'No' (or 'ok'), and the first focus lands on the safe answer. Once it has closed,
 * the focus goes back to what opened it, followed through the action after 'Yes' (focus-return.ts).
 */
export default function ModalHost() {
  const request = useAtomValue(modalQueueAtom)[0];
  const close = useSetAtom(closeModalAtom);
  const [shownId, setShownId] = useState<number | null>(null);
  // The first answer counts: 'Yes' also closes the dialog, which answers again (and is ignored).
  const answered = useRef<{ request: ModalRequest; answer: boolean } | null>(null);

  useEffect(() => {
    if (!request) return;
    const timer = window.setTimeout(() => setShownId(request.id), MODAL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [request]);

  if (!request) return null;
  const open = shownId === request.id;
  const answer = (value: boolean, event?: { detail: number }) => {
    if (event) swallowTrailingClick(event);
    if (answered.current?.request !== request) answered.current = { request, answer: value };
    close({ id: request.id, answer: value });
  };
  // Radix calls this once the dialog has gone (its focus trap with it); without a trigger of its
  // own it would leave the focus on the page body.
  const onCloseAutoFocus = (event: Event) => {
    event.preventDefault();
    const last = answered.current;
    if (!last) return;
    returnFocus(last.request.origin, {
      landing: last.request.focusAfter,
      afterAction: last.request.kind === 'confirm' && last.answer,
    });
  };

  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && answer(request.kind === 'info')}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="modal-overlay" />
        <AlertDialog.Content
          className="modal"
          onCloseAutoFocus={onCloseAutoFocus}
          {...(request.title ? {} : { 'aria-describedby': undefined })}
        >
          <AlertDialog.Title className="modal__title">{request.title ?? request.message}</AlertDialog.Title>
          {request.title ? <AlertDialog.Description className="modal__message">{request.message}</AlertDialog.Description> : null}
          <div className="modal__actions">
            {request.kind === 'confirm' ? (
              <>
                <AlertDialog.Action className="button button--primary" onClick={(event) => answer(true, event)}>
                  Yes
                </AlertDialog.Action>
                <AlertDialog.Cancel className="button button--secondary" onClick={(event) => answer(false, event)}>
                  No
                </AlertDialog.Cancel>
              </>
            ) : (
              <AlertDialog.Cancel className="button button--primary" onClick={(event) => answer(true, event)}>
                ok
              </AlertDialog.Cancel>
            )}
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
