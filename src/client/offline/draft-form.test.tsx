// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import type { ReactNode } from 'react';
import type { AppStore } from '../session/session';
import { resetOffline, signedInStore } from '../test/offline-test-support';
import { hasUnsavedChanges } from '../ui/unsaved-changes';
import { db, draftRowId } from './db';
import { useDraftForm, type DraftFormOptions } from './draft-form';

// The draft-backed configuration of the form engine (docs/decisions.md, 650).

interface Values {
  name: string;
  city: string;
}
const KEY = 'test-form:1';
const parseDraft = (stored: unknown): Values | null =>
  stored && typeof stored === 'object' ? { name: '', city: '', ...(stored as Partial<Values>) } : null;
const validate = (values: Values) =>
  values.name.trim() === ''
    ? { success: false as const, fields: { name: 'required' } }
    : { success: true as const, output: values };

let store: AppStore;
beforeEach(async () => {
  await resetOffline();
  store = signedInStore();
});
afterEach(() => cleanup());

function open(options: Partial<DraftFormOptions<Values, Values>> = {}) {
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  return renderHook(
    () =>
      useDraftForm<Values, Values>({
        draftKey: KEY,
        parseDraft,
        initial: () => ({ name: '', city: 'Leeds' }),
        validate,
        ...options,
      }),
    { wrapper },
  );
}

const stored = async () => db.drafts.get(draftRowId(1, KEY));

describe('useDraftForm', () => {
  it('starts from the initial values when no draft is kept, and keeps every change on the device', async () => {
    const form = open({ serverVersion: 3 });
    await waitFor(() => expect(form.result.current.loaded).toBe(true));
    expect(form.result.current.values).toEqual({ name: '', city: 'Leeds' });
    expect(form.result.current.dirty).toBe(false);

    act(() => form.result.current.onChange((current) => ({ ...current, name: 'Nina' })));
    expect(form.result.current.values).toEqual({ name: 'Nina', city: 'Leeds' });
    expect(form.result.current.dirty).toBe(true);
    // Not on the device yet: the update prompt and sign-out wait.
    expect(hasUnsavedChanges()).toBe(true);
    await waitFor(async () => expect((await stored())?.value).toEqual({ name: 'Nina', city: 'Leeds' }));
    expect((await stored())?.baseVersion).toBe(3);
    await waitFor(() => expect(form.result.current.keptOnDevice).toBe(true));
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('brings a refused draft back with the server’s codes under the form’s paths, shown at once', async () => {
    await db.drafts.put({
      id: draftRowId(1, KEY),
      userId: 1,
      key: KEY,
      value: { name: 'Nina', city: 'Lds' },
      baseVersion: 2,
      updatedAt: Date.now(),
      status: 'rejected',
      serverCodes: { town: 'invalid' },
      serverError: 'validation',
    });
    const form = open({
      formCodes: ({ town, ...rest }) => (town ? { ...rest, city: town } : rest),
      messageFor: (path, code) => `${path}: ${code}`,
    });
    await waitFor(() => expect(form.result.current.values).toEqual({ name: 'Nina', city: 'Lds' }));
    expect(form.result.current.baseVersion).toBe(2);
    expect(form.result.current.errors).toEqual({ city: 'city: invalid' });
    // The code goes once its field is edited.
    act(() => form.result.current.onChange((current) => ({ ...current, city: 'Leeds' })));
    expect(form.result.current.errors).toEqual({});
  });

  it('checks the fields a kept draft names at once, the others only once touched', async () => {
    await db.drafts.put({
      id: draftRowId(1, KEY),
      userId: 1,
      key: KEY,
      value: { name: ' ', city: '' },
      baseVersion: 0,
      updatedAt: Date.now(),
      status: 'editing',
    });
    const plain = open();
    await waitFor(() => expect(plain.result.current.loaded).toBe(true));
    expect(plain.result.current.errors).toEqual({});
    cleanup();

    const restored = open({ touchedWhenRestored: () => ['name'] });
    await waitFor(() => expect(restored.result.current.loaded).toBe(true));
    expect(restored.result.current.errors).toEqual({ name: 'Required field' });
  });
});
