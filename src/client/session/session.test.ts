// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/client';
import { brandAtom, refreshBrand } from './brand';
import { createSessionStore, sessionAtom, startSession, type SessionUser } from './session';

const user: SessionUser = {
  id: 7,
  firmId: 1,
  lawyerId: 3,
  customerId: null,
  role: 'lawyer',
  permissions: ['createApplication'],
  email: 'lawyer@demo.test',
  name: 'Laura',
  surname: 'Bennett',
};

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('the session and brand on start (decision 367)', () => {
  it('keeps the same state when the server confirms the user already shown', () => {
    const store = createSessionStore();
    startSession(store, 'token-1', user);
    const first = store.get(sessionAtom);
    startSession(store, 'token-1', { ...user });
    expect(store.get(sessionAtom)).toBe(first);
    expect(localStorage.getItem('token')).toBe('token-1');
  });

  it('takes a changed user or token', () => {
    const store = createSessionStore();
    startSession(store, 'token-1', user);
    const first = store.get(sessionAtom);
    startSession(store, 'token-1', { ...user, name: 'Lara' });
    const renamed = store.get(sessionAtom);
    expect(renamed).not.toBe(first);
    expect(renamed).toMatchObject({ status: 'signedIn', user: { name: 'Lara' } });
    startSession(store, 'token-2', { ...user, name: 'Lara' });
    expect(store.get(sessionAtom)).toMatchObject({ token: 'token-2' });
  });

  it('keeps the brand state when the server answers the same settings, takes new ones', async () => {
    const store = createSessionStore();
    const same = { ...store.get(brandAtom) };
    const first = store.get(brandAtom);
    vi.spyOn(api, 'GET').mockResolvedValueOnce({ data: same } as never);
    await refreshBrand(store);
    expect(store.get(brandAtom)).toBe(first);
    vi.spyOn(api, 'GET').mockResolvedValueOnce({ data: { ...same, productName: 'Other' } } as never);
    await refreshBrand(store);
    expect(store.get(brandAtom).productName).toBe('Other');
  });
});
