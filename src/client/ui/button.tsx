import type { ButtonHTMLAttributes, MouseEvent } from 'react';
import './button.css';

export type ButtonVariant = 'primary' | 'secondary' | 'link';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Work under way: the button shows it and ignores further clicks, but keeps its focus. */
  busy?: boolean;
}

export function Button({ variant = 'primary', busy = false, className, onClick, children, type, ...rest }: ButtonProps) {
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return (
    <button
      type={type ?? 'button'}
      className={['button', `button--${variant}`, busy ? 'button--busy' : '', className ?? ''].filter(Boolean).join(' ')}
      aria-busy={busy || undefined}
      onClick={handleClick}
      {...rest}
    >
      {busy ? <span className="button__spinner" aria-hidden="true" /> : null}
      <span className="button__label">{children}</span>
    </button>
  );
}
