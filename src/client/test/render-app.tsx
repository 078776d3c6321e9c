import { afterEach, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { permissionsByRole, type Role } from '../../shared/rules/permissions';
import { createRoutes } from '../app/router';
import { createAppStore } from '../app/store';
import { resetConnectionForTests } from '../api/connection';
import type { SessionUser } from '../session/session';

/**
 * Component tests render the real app (router, store, screens) and fake only the network: `fetch`
 * answers from a table of `METHOD /path` handlers, and every call is recorded.
 */

export type Handler = (request: Request) => Response | Promise<Response>;
export type Handlers = Record<string, Handler>;

export function json(status: number, body?: unknown): Response {
  if (body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const BRAND = {
  productName: 'Test Funding',
  phone: '+44 20 7946 0000',
  email: 'help@example.com',
  termsUrl: 'https://example.com/terms',
  privacyUrl: 'https://example.com/privacy',
  companyName: 'Example Finance Ltd',
  providerRole: 'lender',
  lenderName: 'Example Finance Ltd',
};

export function userFor(role: Role): SessionUser {
  return {
    id: 1,
    firmId: role === 'firm' || role === 'lawyer' ? 10 : null,
    lawyerId: role === 'lawyer' ? 5 : null,
    customerId: role === 'customer' ? 7 : null,
    role,
    permissions: [...permissionsByRole[role]],
    email: `${role}@example.com`,
    name: 'Alex',
    surname: 'Morgan',
  };
}

export interface Call {
  method: string;
  path: string;
  body: unknown;
  authorization: string | null;
}

export function fakeApi(handlers: Handlers = {}, session?: SessionUser) {
  const calls: Call[] = [];
  const defaults: Handlers = {
    'GET /config': () => json(200, BRAND),
    'GET /auth': () => (session ? json(200, session) : json(401, { error: 'unauthorized' })),
    'DELETE /auth': () => json(204),
  };
  const table = { ...defaults, ...handlers };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/api/, '');
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
    calls.push({
      method: request.method,
      path,
      body: text ? (JSON.parse(text) as unknown) : undefined,
      authorization: request.headers.get('Authorization'),
    });
    const handler = table[`${request.method} ${path}`];
    return handler ? handler(request) : json(404, { error: 'notFound' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

interface RenderOptions {
  /** Signed in as this role (token and cached user in storage before the app starts). */
  role?: Role;
  handlers?: Handlers;
}

export function renderApp(path: string, { role, handlers }: RenderOptions = {}) {
  const session = role ? userFor(role) : undefined;
  if (session) {
    localStorage.setItem('token', 'test-token');
    localStorage.setItem('sessionUser', JSON.stringify(session));
  }
  const api = fakeApi(handlers, session);
  const store = createAppStore();
  const router = createMemoryRouter(createRoutes(), { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, ...api, store, router, user };
}

/** The path, query and hash the router shows now. */
export function currentUrl(router: ReturnType<typeof createMemoryRouter>): string {
  const { pathname, search, hash } = router.state.location;
  return `${pathname}${search}${hash}`;
}

afterEach(() => {
  cleanup();
  resetConnectionForTests();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
