import { useEffect, useState } from 'react';
import * as AlertDialog from 'radix-ui/alert-dialog';
import { useAtomValue, useSetAtom } from 'jotai';
import { closeModalAtom, modalQueueAtom } from './modal-store';
import { MODAL_DELAY_MS } from '../../shared/rules/limits';
import './button.css';
import './modal.css';

/**
 * Shows the first waiting modal after the spec's 10 ms delay. An alert dialog: focus is trapped,
 * Escape answers 'No' (or 'ok'), and the first focus lands on the safe answer.
 */
export default function ModalHost() {
  const request = useAtomValue(modalQueueAtom)[0];
  const close = useSetAtom(closeModalAtom);
  const [shownId, setShownId] = useState<number | null>(null);

  useEffect(() => {
    if (!request) return;
    const timer = window.setTimeout(() => setShownId(request.id), MODAL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [request]);

  if (!request) return null;
  const open = shownId === request.id;
  const answer = (value: boolean) => close({ id: request.id, answer: value });

  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && answer(request.kind === 'info')}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="modal-overlay" />
        <AlertDialog.Content className="modal" {...(request.title ? {} : { 'aria-describedby': undefined })}>
          <AlertDialog.Title className="modal__title">{request.title ?? request.message}</AlertDialog.Title>
          {request.title ? <AlertDialog.Description className="modal__message">{request.message}</AlertDialog.Description> : null}
          <div className="modal__actions">
            {request.kind === 'confirm' ? (
              <>
                <AlertDialog.Action className="button button--primary" onClick={() => answer(true)}>
                  Yes
                </AlertDialog.Action>
                <AlertDialog.Cancel className="button button--secondary" onClick={() => answer(false)}>
                  No
                </AlertDialog.Cancel>
              </>
            ) : (
              <AlertDialog.Cancel className="button button--primary" onClick={() => answer(true)}>
                ok
              </AlertDialog.Cancel>
            )}
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
