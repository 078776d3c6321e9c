// Loaded by the build only (scripts/prerender.ts, through Vite's SSR loader): never shipped.
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router-dom';
import { App } from './app';
import { createRoutes } from './router';
import { resolveRoutes } from './resolve-routes';
import { createAppStore } from './store';

/**
 * The HTML of a public page as a first visit without a session renders it (no token, the default
 * brand), for `<div id="root">` of the built shell (decision 360).
 */
export async function renderPage(url: string): Promise<string> {
  const routes = createRoutes();
  await resolveRoutes(routes, new URL(url, 'http://localhost').pathname);
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  return renderToString(<App store={createAppStore()} router={router} />);
}
