import { atom, useSetAtom } from 'jotai';
import { useMemo } from 'react';
import { errorMessages } from '../../shared/rules/error-codes';
import { connectionLost } from '../api/client';

/** Toasts as the spec describes them: a title, a message and a type (info by default). */
export type ToastType = 'info' | 'error';

export interface ToastItem {
  id: number;
  title: string;
  message: string;
  type: ToastType;
}

/** How long a toast stays: errors longer, as they are more often read twice. */
export const TOAST_DURATION_MS: Record<ToastType, number> = { info: 5000, error: 10000 };

const DEFAULT_TOAST_TITLES: Record<ToastType, string> = { info: 'Notification', error: 'Error' };

export const toastsAtom = atom<readonly ToastItem[]>([]);

let nextId = 1;

export interface ToastInput {
  message: string;
  title?: string;
  type?: ToastType;
}

export const pushToastAtom = atom(null, (get, set, input: ToastInput) => {
  const type = input.type ?? 'info';
  const toast: ToastItem = { id: nextId++, type, message: input.message, title: input.title ?? DEFAULT_TOAST_TITLES[type] };
  set(toastsAtom, [...get(toastsAtom), toast]);
});

export const dismissToastAtom = atom(null, (get, set, id: number) => {
  set(
    toastsAtom,
    get(toastsAtom).filter((toast) => toast.id !== id),
  );
});

export interface Toaster {
  notify: (message: string, title?: string) => void;
  error: (message: string, title?: string) => void;
  /**
   * The spec's catch-all for unexpected failures: 'Unhandled error', or the words for no connection
   * when that is what failed (api/client.ts, connectionLost).
   */
  unhandled: () => void;
}

export function useToast(): Toaster {
  const push = useSetAtom(pushToastAtom);
  return useMemo(
    () => ({
      notify: (message, title) => push({ message, type: 'info', ...(title ? { title } : {}) }),
      error: (message, title) => push({ message, type: 'error', ...(title ? { title } : {}) }),
      unhandled: () => push({ message: connectionLost() ? errorMessages.offline : errorMessages.unhandled, type: 'error' }),
    }),
    [push],
  );
}
