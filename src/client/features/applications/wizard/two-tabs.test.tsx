// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../offline/application-mutations';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import type { ReactNode } from 'react';
import type { AppStore } from '../../../session/session';
import { db, draftRowId } from '../../../offline/db';
import { mergeDraftValues } from '../../../offline/drafts';
import { resetOffline, signedInStore } from '../../../test/offline-test-support';
import { stepDraftKey } from '../offline/application-ids';
import { caseStep, type CaseValues } from './steps/case-step';
import { useStepForm } from './use-step-form';

// Two tabs on the same step merge their typing field by field (docs/decisions.md: 341).

const KEY = stepDraftKey(7, 'case');
let store: AppStore;

beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
});
afterEach(() => cleanup());

/** One tab: its own hook instance on the same device store (IndexedDB is shared by the tabs). */
function openTab() {
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  return renderHook(
    () => useStepForm({ def: caseStep, draftKey: KEY, serverData: undefined, serverVersion: 0, audience: 'lawyer' }),
    { wrapper },
  );
}

async function stored(): Promise<Partial<CaseValues> | undefined> {
  return (await db.drafts.get(draftRowId(1, KEY)))?.value as Partial<CaseValues> | undefined;
}

describe('two tabs on the same step', () => {
  it('a field typed in one tab shows in the other, and neither replaces the other’s typing', async () => {
    const first = openTab();
    const second = openTab();
    await waitFor(() => expect(first.result.current.loaded && second.result.current.loaded).toBe(true));

    act(() => first.result.current.onChange({ ...first.result.current.values!, caseRef: 'CR-1' }));
    await waitFor(async () => expect((await stored())?.caseRef).toBe('CR-1'));
    // The other tab shows it.
    await waitFor(() => expect(second.result.current.values?.caseRef).toBe('CR-1'));

    // The second tab types another field: the first one's field stays, and the first tab sees it.
    act(() => second.result.current.onChange({ ...second.result.current.values!, yearsMarried: '12' }));
    await waitFor(async () => expect(await stored()).toMatchObject({ caseRef: 'CR-1', yearsMarried: '12' }));
    await waitFor(() => expect(first.result.current.values).toMatchObject({ caseRef: 'CR-1', yearsMarried: '12' }));
  });

  it('typing at the same time in both tabs (before either has seen the other) keeps both fields', async () => {
    const first = openTab();
    const second = openTab();
    await waitFor(() => expect(first.result.current.loaded && second.result.current.loaded).toBe(true));

    act(() => {
      first.result.current.onChange({ ...first.result.current.values!, caseRef: 'CR-2' });
      second.result.current.onChange({ ...second.result.current.values!, completion: 'Spring' });
    });
    await waitFor(async () => expect(await stored()).toMatchObject({ caseRef: 'CR-2', completion: 'Spring' }));
    await waitFor(() => expect(first.result.current.values).toMatchObject({ caseRef: 'CR-2', completion: 'Spring' }));
    await waitFor(() => expect(second.result.current.values).toMatchObject({ caseRef: 'CR-2', completion: 'Spring' }));
  });
});

describe('mergeDraftValues', () => {
  it('keeps the fields this tab changed and takes every other from the stored draft', () => {
    const base = { a: '1', b: '1', list: [1], nested: { x: 1, y: 1 } };
    const mine = { a: '2', b: '1', list: [1], nested: { x: 2, y: 1 } };
    const theirs = { a: '1', b: '3', list: [1, 2], nested: { x: 1, y: 3 } };
    expect(mergeDraftValues(base, mine, theirs)).toEqual({ a: '2', b: '3', list: [1, 2], nested: { x: 2, y: 3 } });
  });

  it('the same field changed in both: this tab’s typing wins (it is the one being typed)', () => {
    expect(mergeDraftValues({ a: '' }, { a: 'mine' }, { a: 'theirs' })).toEqual({ a: 'mine' });
  });
});
