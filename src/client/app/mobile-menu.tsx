import type { ReactNode } from 'react';
import { Dialog } from '../ui/dialog';

/**
 * The mobile menu's dialog (navigation.tsx owns the 'menu' button and the open state): its own
 * chunk with the dialog primitives, loaded once the first screen is drawn, so no signed-in screen
 * waits for it (decision 367).
 */
export default function MobileMenu({
  open,
  onOpenChange,
  onCloseAutoFocus,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Content className="mobile-menu" aria-describedby={undefined} onCloseAutoFocus={onCloseAutoFocus}>
          <div className="mobile-menu__bar">
            <Dialog.Title className="mobile-menu__title">Menu</Dialog.Title>
            <Dialog.Close className="menu-button">close</Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
