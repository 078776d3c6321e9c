/**
 * Shared set-up of the offline layer's tests (not shipped: only *.test.ts files import it).
 * Import 'fake-indexeddb/auto' before this module.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { createSessionStore, type AppStore, type SessionUser } from '../session/session';
import { clearAllTables } from '../offline/db';
import { resetEngineStateForTests } from '../offline/engine-state';
import { setUploadTransport } from '../offline/multipart-upload';
import { resetPersistenceRequest, resetStorageErrorReports } from '../offline/persist';
import { bindSessionStore } from '../session/current-session';
import { lastPushForTests, stopSyncForTests } from '../offline/sync-engine';
import { resetConnectionForTests } from '../api/connection';
import { resetBatchingForTests } from '../offline/sync-batch';

export function testUser(id = 1): SessionUser {
  return {
    id,
    firmId: 10,
    lawyerId: 5,
    customerId: null,
    role: 'lawyer',
    permissions: ['readApplications', 'readApplication', 'createApplication', 'updateApplication'],
    email: `lawyer${id}@example.com`,
    name: 'Alex',
    surname: 'Morgan',
  };
}

export function jsonResponse(status: number, body?: unknown): Response {
  if (body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export interface SentCall {
  method: string;
  path: string;
  body: unknown;
  idempotencyKey: string | null;
  authorization: string | null;
}

export type RouteHandler = (call: SentCall) => Response | Promise<Response>;

/**
 * A fake server: `routes` answers `METHOD /path`; `offline = true` makes every call fail as with no
 * connection. Every call that reached the "server" is recorded.
 */
export function fakeServer(routes: Record<string, RouteHandler> = {}) {
  const server = { offline: false, calls: [] as SentCall[], routes };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (server.offline) throw new TypeError('Failed to fetch');
      const request = input instanceof Request ? input : new Request(input, init);
      const path = new URL(request.url).pathname.replace(/^\/api/, '');
      const text = request.method === 'GET' ? '' : await request.clone().text();
      const call: SentCall = {
        method: request.method,
        path,
        body: text ? (JSON.parse(text) as unknown) : undefined,
        idempotencyKey: request.headers.get('Idempotency-Key'),
        authorization: request.headers.get('Authorization'),
      };
      server.calls.push(call);
      const handler = server.routes[`${request.method} ${path}`];
      return handler ? handler(call) : jsonResponse(404, { error: 'notFound' });
    }),
  );
  return server;
}

/** A signed-in store (token `token-<n>`), bound to the offline layer. */
export function signedInStore(user = testUser(), token = 'token-1'): AppStore {
  localStorage.setItem('token', token);
  localStorage.setItem('sessionUser', JSON.stringify(user));
  localStorage.setItem('lastActivity', String(Date.now()));
  const store = createSessionStore();
  bindSessionStore(store);
  return store;
}

export async function resetOffline(): Promise<void> {
  stopSyncForTests();
  // A push of the test before may still be ending: it would mark this test's requests as settled.
  await Promise.race([lastPushForTests(), new Promise((resolve) => setTimeout(resolve, 1_000))]);
  resetEngineStateForTests();
  setUploadTransport(null);
  resetPersistenceRequest();
  resetStorageErrorReports();
  await clearAllTables();
  // After the awaits: a send of the test before that was still under way has reported by now.
  resetConnectionForTests();
  resetBatchingForTests();
  localStorage.clear();
  vi.unstubAllGlobals();
}

/**
 * The set-up most offline tests share, registered for the calling file: a clean device and a
 * signed-in store before each test; after it, the rendered tree unmounted, the engine a test
 * started (`session.stop = startSync(session.store)`) stopped, and the faked network put back.
 */
export function offlineSession(): { store: AppStore; stop: (() => void) | undefined } {
  const session = { store: undefined as unknown as AppStore, stop: undefined as (() => void) | undefined };
  beforeEach(async () => {
    await resetOffline();
    session.store = signedInStore();
  });
  afterEach(() => {
    cleanup();
    session.stop?.();
    session.stop = undefined;
    vi.unstubAllGlobals();
  });
  return session;
}
