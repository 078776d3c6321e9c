// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import type { ReactNode } from 'react';
import { sessionAtom, type AppStore } from '../../session/session';
import { closeModalAtom, modalQueueAtom } from '../../ui/modal-store';
import { enqueue } from '../../offline/outbox';
import * as v from 'valibot';
import { registerMutation } from '../../offline/mutation-registry';
import { fakeServer, resetOffline, signedInStore } from '../../test/offline-test-support';
import { SIGN_OUT_UNSENT_MESSAGE, useSignOut } from './use-sign-out';

// Any queued write of the user counts: a kind of this test's own, never sent (no sync runs here).
declare module '../../offline/mutation-registry' {
  interface MutationKinds {
    signOutTestWrite: { n: number };
  }
}
registerMutation({
  kind: 'signOutTestWrite',
  payload: v.object({ n: v.number() }),
  scope: () => null,
  send: async () => ({ type: 'retry' }),
});

let store: AppStore;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
  fakeServer({ 'DELETE /auth': () => new Response(null, { status: 204 }) });
});

afterEach(() => cleanup());

function renderSignOut() {
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  return renderHook(() => useSignOut(), { wrapper });
}

describe('useSignOut', () => {
  it('signs out at once when nothing waits to be sent', async () => {
    const { result } = renderSignOut();
    await act(() => result.current());
    expect(store.get(sessionAtom).status).toBe('signedOut');
  });

  it('warns first when changes are still waiting on this device', async () => {
    await enqueue({ kind: 'signOutTestWrite', n: 7 });
    const { result } = renderSignOut();
    let done: Promise<void> = Promise.resolve();
    act(() => {
      done = result.current();
    });
    await waitFor(() => expect(store.get(modalQueueAtom)).toHaveLength(1));
    const [question] = store.get(modalQueueAtom);
    expect(question!.message).toBe(SIGN_OUT_UNSENT_MESSAGE);
    act(() => store.set(closeModalAtom, { id: question!.id, answer: false }));
    await act(() => done);
    expect(store.get(sessionAtom).status).toBe('signedIn');

    act(() => {
      done = result.current();
    });
    await waitFor(() => expect(store.get(modalQueueAtom)).toHaveLength(1));
    act(() => store.set(closeModalAtom, { id: store.get(modalQueueAtom)[0]!.id, answer: true }));
    await act(() => done);
    expect(store.get(sessionAtom).status).toBe('signedOut');
  });
});
