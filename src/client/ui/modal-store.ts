import { atom, useSetAtom } from 'jotai';
import { useCallback } from 'react';

/** Info (one 'ok') and confirm ('Yes' / 'No') modals, asked for with a promise. */
export interface ModalRequest {
  id: number;
  kind: 'info' | 'confirm';
  message: string;
  title?: string;
  resolve: (answer: boolean) => void;
}

export interface ModalOptions {
  message: string;
  /** Without a title the message itself heads the modal. */
  title?: string;
}

/** Requests wait in line: the host shows the first one. */
export const modalQueueAtom = atom<readonly ModalRequest[]>([]);

let nextId = 1;

const openModalAtom = atom(null, (get, set, request: ModalRequest) => {
  set(modalQueueAtom, [...get(modalQueueAtom), request]);
});

export const closeModalAtom = atom(null, (get, set, { id, answer }: { id: number; answer: boolean }) => {
  const queue = get(modalQueueAtom);
  const request = queue.find((item) => item.id === id);
  if (!request) return;
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
        const { message, title } = typeof options === 'string' ? { message: options, title: undefined } : options;
        open({ id: nextId++, kind, message, ...(title ? { title } : {}), resolve });
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
