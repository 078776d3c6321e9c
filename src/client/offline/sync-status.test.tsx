// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../test/test-record-writes';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import { MemoryRouter } from 'react-router-dom';
import type { AppStore } from '../session/session';
import { writeDraft } from './drafts';
import { db } from './db';
import { enqueue } from './outbox';
import { startSync, syncNow } from './sync-engine';
import { syncStatusText } from './use-sync-status';
import { SyncStatus } from './sync-status';
import { fakeServer, jsonResponse, resetOffline, signedInStore } from '../test/offline-test-support';
import { partDraftKey } from '../test/test-record-writes';

let store: AppStore;
let stop: () => void;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
});

afterEach(() => {
  cleanup();
  stop?.();
});

function renderStatus() {
  render(
    <Provider store={store}>
      <MemoryRouter>
        <SyncStatus />
      </MemoryRouter>
    </Provider>,
  );
  return screen.getByRole('status');
}

describe('sync status', () => {
  it('has the shell’s words for each state', () => {
    expect(syncStatusText({ state: 'saved', waiting: 0 })).toBe('All changes saved');
    expect(syncStatusText({ state: 'waiting', waiting: 1 })).toBe('1 change waiting for a connection');
    expect(syncStatusText({ state: 'waiting', waiting: 3 })).toBe('3 changes waiting for a connection');
    expect(syncStatusText({ state: 'syncing', waiting: 2 })).toBe('Syncing…');
    expect(syncStatusText({ state: 'attention', waiting: 0 })).toBe('Needs your attention');
    expect(syncStatusText({ state: 'unsaved', waiting: 0, unsaved: 1 })).toBe('1 form not saved yet');
    expect(syncStatusText({ state: 'unsaved', waiting: 0, unsaved: 2 })).toBe('2 forms not saved yet');
  });

  it('is a link to the changes waiting on the device (decision 342)', async () => {
    stop = startSync(store);
    renderStatus();
    expect(screen.getByRole('link').getAttribute('href')).toBe('/changes');
  });

  it('says a form holds typing not saved yet, and all saved only once it is saved', async () => {
    stop = startSync(store);
    const status = renderStatus();
    await waitFor(() => expect(status.textContent).toBe('All changes saved'));
    await writeDraft(1, partDraftKey(7, 'case'), { caseRef: 'typed' });
    await waitFor(() => expect(status.textContent).toBe('1 form not saved yet'));
    await db.drafts.delete(`1|${partDraftKey(7, 'case')}`);
    await waitFor(() => expect(status.textContent).toBe('All changes saved'));
  });

  it('says Offline as soon as the browser is offline, beside what waits', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      fakeServer().offline = true;
      stop = startSync(store);
      const status = renderStatus();
      act(() => void window.dispatchEvent(new Event('offline')));
      await waitFor(() => expect(status.textContent).toBe('Offline'));
      await enqueue({ kind: 'testSave', recordId: 7, part: 'case', baseVersion: 0, data: {} });
      await waitFor(() => expect(status.textContent).toBe('Offline · 1 change waiting for a connection'));
      expect(screen.getByText('1 change waiting for a connection')).toBeTruthy();
    } finally {
      onLine.mockRestore();
    }
  });

  it('is a polite live region showing all saved, then the waiting changes (offline: their sends got no answer, decision 401), then all saved again', async () => {
    const server = fakeServer({
      'POST /records/save/case': () => jsonResponse(200, { data: {}, version: 1 }),
    });
    server.offline = true;
    stop = startSync(store);
    const status = renderStatus();
    expect(status.getAttribute('aria-live')).toBe('polite');
    await waitFor(() => expect(status.textContent).toBe('All changes saved'));

    await enqueue({ kind: 'testSave', recordId: 7, part: 'case', baseVersion: 0, data: {} });
    await syncNow();
    await waitFor(() => expect(status.textContent).toBe('Offline · 1 change waiting for a connection'));
    await enqueue({ kind: 'testSave', recordId: 7, part: 'case', baseVersion: 0, data: {} });
    await syncNow();
    await waitFor(() => expect(status.textContent).toBe('Offline · 2 changes waiting for a connection'));

    server.offline = false;
    await syncNow();
    await waitFor(() => expect(status.textContent).toBe('All changes saved'));
    expect(await db.outbox.count()).toBe(0);
  });

  it('says Syncing… while writes are being sent', async () => {
    let release: () => void = () => undefined;
    const answer = new Promise<void>((resolve) => {
      release = resolve;
    });
    fakeServer({
      'POST /records/save/case': async () => {
        await answer;
        return jsonResponse(200, { data: {}, version: 1 });
      },
    });
    stop = startSync(store);
    const status = renderStatus();
    await enqueue({ kind: 'testSave', recordId: 7, part: 'case', baseVersion: 0, data: {} });
    await waitFor(() => expect(status.textContent).toBe('Syncing…'));
    release();
    await waitFor(() => expect(status.textContent).toBe('All changes saved'));
  });

  it('needs attention when a draft was refused or conflicts', async () => {
    stop = startSync(store);
    const status = renderStatus();
    await waitFor(() => expect(status.textContent).toBe('All changes saved'));
    await writeDraft(1, partDraftKey(7, 'case'), {});
    await db.drafts.update(`1|${partDraftKey(7, 'case')}`, { status: 'rejected', serverCodes: { caseRef: 'required' } });
    await waitFor(() => expect(status.textContent).toBe('Needs your attention'));
  });

  it('counts failed uploads without reading their rows (each row holds a file) when a draft is written', async () => {
    stop = startSync(store);
    await db.uploads.add({
      localId: 'upload-1',
      userId: 1,
      owner: '7',
      type: 'formE',
      fileName: 'a.pdf',
      mimeType: 'application/pdf',
      size: 4,
      data: new ArrayBuffer(4),
      status: 'failed',
      progress: 0,
      createdAt: 1,
    });
    let rowsRead = 0;
    const reading = (row: unknown) => {
      rowsRead += 1;
      return row;
    };
    db.uploads.hook('reading', reading);
    try {
      const status = renderStatus();
      await waitFor(() => expect(status.textContent).toBe('Needs your attention'));
      for (const caseRef of ['a', 'ab', 'abc']) await writeDraft(1, partDraftKey(7, 'case'), { caseRef });
      await syncNow();
      expect(status.textContent).toBe('Needs your attention');
      expect(rowsRead).toBe(0);
    } finally {
      db.uploads.hook('reading').unsubscribe(reading);
    }
  });
});
