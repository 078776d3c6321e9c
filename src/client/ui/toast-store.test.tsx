// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../api/client';
import { errorMessages } from '../../shared/rules/error-codes';
import { toastsAtom, useToast } from './toast-store';

/** The catch-all toast: 'Unhandled error' only for a real defect (decision 400), not for no connection. */
describe('useToast().unhandled', () => {
  afterEach(() => vi.unstubAllGlobals());

  const toastAfter = async (send: (request: Request) => Promise<Response>) => {
    const store = createStore();
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
    const { result } = renderHook(() => useToast(), { wrapper });
    await createApiClient(send)
      .GET('/config')
      .catch(() => undefined);
    act(() => result.current.unhandled());
    return store.get(toastsAtom).at(-1)?.message;
  };

  it('says there is no connection when the call it follows got no answer', async () => {
    expect(await toastAfter(() => Promise.reject(new TypeError('Failed to fetch')))).toBe(errorMessages.offline);
  });

  it('says there is no connection when the browser says it is offline', async () => {
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    expect(await toastAfter(() => Promise.resolve(new Response('{}', { status: 200 })))).toBe(errorMessages.offline);
  });

  it('is the spec’s catch-all once calls are answered again', async () => {
    await toastAfter(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await toastAfter(() => Promise.resolve(new Response('{}', { status: 500 })))).toBe(errorMessages.unhandled);
  });
});
