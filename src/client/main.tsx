// The global sheets first: each primitive's and each feature's CSS comes with its module, after them.
import './styles/tokens.css';
import './styles/base.css';
import './styles/layout.css';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { createAppRouter, createRoutes } from './app/router';
import { resolveRoutes } from './app/resolve-routes';
import { createAppStore } from './app/store';
import { brandAtom } from './session/brand';
import { sessionAtom } from './session/session';
import { signedOutNotice } from './session/signed-out-notice';
import { registerServiceWorker } from './pwa/register';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const store = createAppStore();

/**
 * A public page the server sent prerendered (decision 360) is hydrated: its route's module is
 * loaded first, so the first render is the same page and nothing on it moves. When this device
 * would render it otherwise (a session is stored, the brand's name differs), the prerendered HTML
 * stays until the same page is rendered over it, again with its module loaded first.
 */
async function start(root: HTMLElement): Promise<void> {
  const routes = createRoutes();
  const prerendered = root.dataset.prerendered !== undefined;
  if (!prerendered) {
    createRoot(root).render(<App store={store} router={createAppRouter(routes)} />);
    return;
  }
  await resolveRoutes(routes, window.location.pathname);
  const router = createAppRouter(routes);
  const session = store.get(sessionAtom);
  const sameAsBuilt =
    session.status === 'signedOut' &&
    // The built page has no notice: a session that just expired here renders one (decision 455).
    signedOutNotice(session.reason) === null &&
    root.querySelector('.brand')?.textContent === store.get(brandAtom).productName;
  if (sameAsBuilt) hydrateRoot(root, <App store={store} router={router} />);
  else createRoot(root).render(<App store={store} router={router} />);
}

void start(container);

registerServiceWorker();
