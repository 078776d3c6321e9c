import { useEffect, useRef, type ReactNode } from 'react';
import { registerActionBar } from './action-bars';
import './action-bar.css';

/**
 * A form's or a page's actions, within thumb reach on phones: below 992 px the bar sticks to the
 * bottom of the screen, and the page accounts for it (ui/action-bars.ts): a field brought into view
 * is never behind it, and toasts never cover it.
 */
export function ActionBar({ className, children }: { className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => (ref.current ? registerActionBar(ref.current) : undefined), []);
  return (
    <div ref={ref} className={['action-bar', className ?? ''].filter(Boolean).join(' ')}>
      {children}
    </div>
  );
}
