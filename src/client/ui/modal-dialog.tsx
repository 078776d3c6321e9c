import type { ReactNode } from 'react';
import { Dialog } from './dialog';
import './button.css';
import './modal.css';

interface ModalDialogProps {
  open: boolean;
  /** Escape, the overlay or a close button: the dialog asks to close. */
  onClose: () => void;
  title: string;
  description?: string;
  /** The dialog's content: it scrolls on its own when taller than the screen. */
  children: ReactNode;
  /** The dialog's buttons, always in view below the content (a phone's bottom sheet, thumb reach). */
  actions: ReactNode;
  className?: string;
}

/**
 * A dialog with its own styles, wherever it is used (docs/decisions.md 430): a bottom sheet on
 * phones, centred from 992 px, never taller than the screen; its content scrolls between the title
 * and the buttons, which stay in view. Focus is trapped inside and returns on close; Escape closes.
 */
export function ModalDialog({ open, onClose, title, description, children, actions, className }: ModalDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" />
        <Dialog.Content
          className={['modal', 'modal--scroll', className ?? ''].filter(Boolean).join(' ')}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="modal__header">
            <Dialog.Title className="modal__title">{title}</Dialog.Title>
            {description ? <Dialog.Description className="modal__message">{description}</Dialog.Description> : null}
          </div>
          <div className="modal__body">{children}</div>
          <div className="modal__actions">{actions}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A button that closes the dialog it is in. */
export const ModalClose = Dialog.Close;
