// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import * as v from 'valibot';
import { errorMessages } from '../../shared/rules/error-codes';
import { closeModalAtom, modalQueueAtom } from '../ui/modal-store';
import { draftKey } from './draft-keys';
import { db, draftRowId } from './db';
import { countDraftsNeedingAttention } from './drafts';
import { registerMutation } from './mutation-registry';
import { enqueue } from './outbox';
import { useQueuedDecision, type DecisionResult } from './queued-decision';
import { classify } from './send-outcome';
import { startSync, syncNow } from './sync-engine';
import { fakeServer, jsonResponse, offlineSession } from '../test/offline-test-support';

// A decision of this test's own: a choice about one record, refused with the server's code.
declare module './mutation-registry' {
  interface MutationKinds {
    decideTestRecord: { recordId: number; choice: string };
  }
}
registerMutation({
  kind: 'decideTestRecord',
  payload: v.object({ recordId: v.number(), choice: v.string() }),
  scope: ({ recordId }) => `decide-test:${recordId}`,
  send: async ({ recordId, choice }, ctx) => {
    const response = await fetch(`${location.origin}/api/records/${recordId}/decision`, {
      method: 'POST',
      body: JSON.stringify({ choice }),
      headers: { 'Idempotency-Key': ctx.idempotencyKey, 'Content-Type': 'application/json' },
    });
    return classify(response.status, await response.json());
  },
  draftValue: ({ choice }) => ({ value: { choice }, baseVersion: 0 }),
});

const keyOf = (recordId: number) => draftKey('decide-test', recordId);
const choiceSchema = v.object({ choice: v.string() });

const session = offlineSession();

function renderDecision(recordId = 7) {
  const onChanged = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={session.store}>{children}</Provider>;
  const hook = renderHook(() => useQueuedDecision('decideTestRecord', keyOf(recordId), { refused: choiceSchema, onChanged }), {
    wrapper,
  });
  return { ...hook, onChanged };
}

/** Answers the question the decision asked (the modal host is not rendered here). */
async function answer(yes: boolean, question: string) {
  await waitFor(() => expect(session.store.get(modalQueueAtom).map((modal) => modal.message)).toEqual([question]));
  act(() => session.store.set(closeModalAtom, { id: session.store.get(modalQueueAtom)[0]!.id, answer: yes }));
}

describe('useQueuedDecision', () => {
  it("asks first: 'No' queues nothing and sends nothing", async () => {
    const server = fakeServer();
    session.stop = startSync(session.store);
    const { result } = renderDecision();
    let outcome: Promise<DecisionResult> | undefined;
    act(() => void (outcome = result.current.run({ recordId: 7, choice: 'approve' }, { question: 'Sure?' })));
    await answer(false, 'Sure?');
    expect(await outcome).toEqual({ status: 'declined' });
    expect(await db.outbox.count()).toBe(0);
    expect(server.calls).toHaveLength(0);
    expect(result.current.busy).toBeNull();
  });

  it("'Yes' sends it once with its Idempotency-Key, shows it busy meanwhile, and the record is read again", async () => {
    let release: () => void = () => undefined;
    const server = fakeServer({
      'POST /records/7/decision': () =>
        new Promise((resolve) => (release = () => resolve(jsonResponse(200, { id: 7, status: 'approved' })))),
    });
    session.stop = startSync(session.store);
    const { result, onChanged } = renderDecision();
    let outcome: Promise<DecisionResult> | undefined;
    act(() => void (outcome = result.current.run({ recordId: 7, choice: 'approve' }, { question: 'Sure?' })));
    await answer(true, 'Sure?');
    await waitFor(() => expect(result.current.busy).toEqual({ recordId: 7, choice: 'approve' }));
    await waitFor(() => expect(server.calls).toHaveLength(1));
    release();
    expect(await outcome).toMatchObject({ status: 'done', body: { status: 'approved' } });
    expect(server.calls[0]).toMatchObject({ path: '/records/7/decision', body: { choice: 'approve' } });
    expect(server.calls[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(onChanged).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(result.current.busy).toBeNull());
    expect(result.current.refusal).toBeUndefined();
  });

  it("offline: kept on the device as this record's waiting write (not another record's), sent once on reconnect", async () => {
    const server = fakeServer({ 'POST /records/7/decision': () => jsonResponse(200, { id: 7 }) });
    server.offline = true;
    session.stop = startSync(session.store);
    const { result } = renderDecision();
    let outcome: DecisionResult | undefined;
    await act(async () => void (outcome = await result.current.run({ recordId: 7, choice: 'approve' })));
    expect(outcome).toEqual({ status: 'queued' });
    // Another record's decision, queued after it: not this record's.
    await act(() => enqueue({ kind: 'decideTestRecord', recordId: 8, choice: 'reject', draftKey: keyOf(8) }));
    expect(await db.outbox.count()).toBe(2);
    await waitFor(() => expect(result.current.waiting).toEqual({ recordId: 7, choice: 'approve' }));

    server.offline = false;
    server.routes['POST /records/8/decision'] = () => jsonResponse(200, { id: 8 });
    await act(() => syncNow());
    await waitFor(() => expect(result.current.waiting).toBeUndefined());
    expect(server.calls.filter((call) => call.path === '/records/7/decision')).toHaveLength(1);
  });

  it("refused: keeps the choice with the server's code until dismissed, then the record is read again", async () => {
    fakeServer({ 'POST /records/7/decision': () => jsonResponse(409, { error: 'conflict' }) });
    session.stop = startSync(session.store);
    const { result, onChanged } = renderDecision();
    let outcome: DecisionResult | undefined;
    await act(async () => void (outcome = await result.current.run({ recordId: 7, choice: 'approve' })));
    expect(outcome).toMatchObject({ status: 'rejected', error: 'conflict' });
    await waitFor(() => expect(result.current.refusal?.value).toEqual({ choice: 'approve' }));
    expect(result.current.refusal?.serverError).toBe('conflict');
    expect(onChanged).not.toHaveBeenCalled();
    // It counts in 'Needs your attention' until read.
    expect(await countDraftsNeedingAttention(1)).toBe(1);

    await act(() => result.current.dismiss());
    await waitFor(() => expect(result.current.refusal).toBeUndefined());
    expect(await db.drafts.count()).toBe(0);
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it("a refusal written in another tab shows here (the device's store is shared)", async () => {
    const { result } = renderDecision();
    await act(() =>
      db.drafts.put({
        id: draftRowId(1, keyOf(7)),
        userId: 1,
        key: keyOf(7),
        value: { choice: 'reject' },
        baseVersion: 0,
        updatedAt: Date.now(),
        status: 'rejected',
        serverError: 'conflict',
      }),
    );
    await waitFor(() => expect(result.current.refusal?.value).toEqual({ choice: 'reject' }));
  });

  it('a write that cannot be queued says so in the spec’s words, and nothing is sent', async () => {
    const server = fakeServer();
    session.stop = startSync(session.store);
    const { result } = renderDecision();
    let outcome: DecisionResult | undefined;
    // Not a payload of the kind: refused before it is stored.
    await act(
      async () => void (outcome = await result.current.run({ recordId: 'seven' as unknown as number, choice: 'approve' })),
    );
    expect(outcome).toEqual({ status: 'failed' });
    expect(result.current.message).toBe(errorMessages.unhandled);
    expect(await db.outbox.count()).toBe(0);
    expect(server.calls).toHaveLength(0);
  });
});
