// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'jotai';
import { MemoryRouter } from 'react-router-dom';
import * as v from 'valibot';
import { errorMessages } from '../../shared/rules/error-codes';
import { reportUnanswered } from '../api/connection';
import { ApiResponseError, ReadTimeout } from '../api/failure';
import { brandAtom } from '../session/brand';
import type { AppStore } from '../session/session';
import { resetOffline, signedInStore } from '../test/offline-test-support';
import { registerWritePlace } from './attention';
import { db } from './db';
import { registerMutation } from './mutation-registry';
import {
  OFFLINE_COPY_TEXT,
  OFFLINE_NO_COPY_TEXT,
  ReadStatus,
  UNAVAILABLE_COPY_TEXT,
  UNAVAILABLE_NO_COPY_TEXT,
  WAITING_TITLE,
  type ReadShown,
} from './read-status';

declare module './mutation-registry' {
  interface MutationKinds {
    readStatusTestWrite: { recordId: number };
  }
}
registerMutation({
  kind: 'readStatusTestWrite',
  payload: v.object({ recordId: v.number() }),
  scope: () => null,
  send: async () => ({ type: 'retry' }),
});
// Seen on its record's page, and changes the list too.
registerWritePlace<{ recordId: number }>('readStatusTestWrite', ({ recordId }) => ({
  label: `Record ${recordId}: a change`,
  href: `/records/${recordId}`,
  pages: ['/records'],
}));

let store: AppStore;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
  store.set(brandAtom, {
    productName: 'Test',
    phone: '020 7946 0000',
    email: 'help@example.com',
    termsUrl: '',
    privacyUrl: '',
    companyName: '',
    providerRole: 'lender',
    lenderName: '',
  });
});

afterEach(() => cleanup());

const copy: ReadShown = { data: { items: [1] }, savedAt: Date.UTC(2026, 10, 25, 9, 30), fromCache: true, error: undefined };
const fresh: ReadShown = { data: { items: [1] }, savedAt: Date.now(), fromCache: false, error: undefined };
const nothing: ReadShown = { data: undefined, savedAt: undefined, fromCache: false, error: undefined };
const noAnswer = new TypeError('Failed to fetch');

function show(read: ReadShown, path = '/records') {
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <ReadStatus read={read} />
      </MemoryRouter>
    </Provider>,
  );
}

describe('ReadStatus (decisions 400 and 404)', () => {
  it('says nothing while the page shows a fresh answer online', () => {
    show(fresh);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('offline: says so plainly, with the saved copy’s time, and lists the requests waiting for this page only', async () => {
    await db.outbox.add({
      id: 'w1',
      userId: 1,
      kind: 'readStatusTestWrite',
      payload: { recordId: 7 },
      createdAt: 1,
      attempts: 0,
    });
    await db.outbox.add({
      id: 'w2',
      userId: 2,
      kind: 'readStatusTestWrite',
      payload: { recordId: 8 },
      createdAt: 1,
      attempts: 0,
    });
    show({ ...copy, error: noAnswer });
    expect(screen.getByText(OFFLINE_COPY_TEXT)).toBeTruthy();
    expect(screen.getByText('Saved copy from 25/11/2026 09:30')).toBeTruthy();
    expect(await screen.findByText(WAITING_TITLE)).toBeTruthy();
    expect(screen.getByText(/Record 7: a change/)).toBeTruthy();
    // Another user's write on this device is theirs.
    expect(screen.queryByText(/Record 8/)).toBeNull();
    expect(screen.queryByText(/Unhandled error/)).toBeNull();
  });

  it('offline with nothing saved on this device: says the page opens once back online', () => {
    show({ ...nothing, error: noAnswer }, '/records/9');
    expect(screen.getByText(OFFLINE_NO_COPY_TEXT)).toBeTruthy();
  });

  it('offline as the connection state knows it (a request went unanswered), even over an answer read before', () => {
    act(() => reportUnanswered());
    show(fresh);
    expect(screen.getByText(OFFLINE_COPY_TEXT)).toBeTruthy();
    expect(screen.getByText(/^Saved copy from /)).toBeTruthy();
  });

  it('a 503, a 504 or no answer in time: the portal is not answering, never "Unhandled error"', () => {
    const { unmount } = show({ ...copy, error: new ApiResponseError(503, { error: 'unavailable' }) });
    expect(screen.getByText(UNAVAILABLE_COPY_TEXT)).toBeTruthy();
    expect(screen.queryByText(/Unhandled error/)).toBeNull();
    unmount();
    show({ ...nothing, error: new ReadTimeout() });
    expect(screen.getByText(UNAVAILABLE_NO_COPY_TEXT)).toBeTruthy();
    cleanup();
    show({ ...nothing, error: new ApiResponseError(504, null) });
    expect(screen.getByText(UNAVAILABLE_NO_COPY_TEXT)).toBeTruthy();
  });

  it('a real defect reads "Unhandled error" and says what to do, with the contact details', () => {
    show({ ...nothing, error: new ApiResponseError(500, { error: 'unhandled' }) });
    expect(screen.getByText(errorMessages.unhandled)).toBeTruthy();
    expect(
      screen.getByText(
        'Reload the page to try again. If it happens again, call 020 7946 0000 or email help@example.com and say what you were doing.',
      ),
    ).toBeTruthy();
  });

  it('too many requests: its own words, without the defect’s advice', () => {
    show({ ...nothing, error: new ApiResponseError(429, { error: 'tooManyAttempts' }) });
    expect(screen.getByText(errorMessages.tooManyAttempts)).toBeTruthy();
    expect(screen.queryByText(/Reload the page/)).toBeNull();
  });
});
