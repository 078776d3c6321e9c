import { atom, useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { captureOrigin, type FocusLanding, type FocusOrigin } from './focus-return';

/** Info (one 'ok') and confirm ('Yes' / 'No') modals, asked for with a promise. */
export interface ModalRequest {
  id: number;
  kind: 'info' | 'confirm';
  message: string;
  title?: string;
  /** What had the focus when the modal was asked for: it gets it back when the modal closes. */
  origin: FocusOrigin;
  focusAfter?: FocusLanding;
  resolve: (answer: boolean) => void;
}

export interface ModalOptions {
  message: string;
  /** Without a title the message itself heads the modal. */
  title?: string;
  /**
   * Where the focus goes if the control that asked is gone once 'Yes' has done its work (the
   * record's new status, the notice the action left): docs/decisions.md (461). Without it, the
   * heading of the nearest section still on the page.
   */
  focusAfter?: FocusLanding;
}

/** Requests wait in line: the host shows the first one. */
export const modalQueueAtom = atom<readonly ModalRequest[]>([]);

let nextId = 1;

/**
 * The origin of the modal that closed last, and when: a question asked straight after another's
 * answer (sign out: unsaved changes, then changes not sent) is asked from the same control.
 */
let lastClosed: { origin: FocusOrigin; at: number } | null = null;
const CHAINED_MS = 1_000;

function originOfNewModal(): FocusOrigin {
  const origin = captureOrigin();
  if (origin.opener || !lastClosed || Date.now() - lastClosed.at > CHAINED_MS) return origin;
  return lastClosed.origin;
}

const openModalAtom = atom(null, (get, set, request: ModalRequest) => {
  set(modalQueueAtom, [...get(modalQueueAtom), request]);
});

export const closeModalAtom = atom(null, (get, set, { id, answer }: { id: number; answer: boolean }) => {
  const queue = get(modalQueueAtom);
  const request = queue.find((item) => item.id === id);
  if (!request) return;
  lastClosed = { origin: request.origin, at: Date.now() };
  set(
    modalQueueAtom,
    queue.filter((item) => item.id !== id),
  );
  request.resolve(answer);
});

function useModal(kind: ModalRequest['kind']): (options: ModalOptions | string) => Promise<boolean> {
  const open = useSetAtom(openModalAtom);
  return useCallback(
    (options) =>
      new Promise<boolean>((resolve) => {
        const { message, title, focusAfter } = typeof options === 'string' ? { message: options } : options;
        open({
          id: nextId++,
          kind,
          message,
          ...(title ? { title } : {}),
          origin: originOfNewModal(),
          ...(focusAfter ? { focusAfter } : {}),
          resolve,
        });
      }),
    [open, kind],
  );
}

/** Resolves true for 'Yes', false for 'No' or Escape. */
export function useConfirm(): (options: ModalOptions | string) => Promise<boolean> {
  return useModal('confirm');
}

/** Resolves when the user presses 'ok' (or Escape). */
export function useInfo(): (options: ModalOptions | string) => Promise<boolean> {
  return useModal('info');
}
