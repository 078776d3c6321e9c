import { Link, Navigate, Outlet, useMatches, useNavigation } from 'react-router-dom';
import { lazy, Suspense, useEffect } from 'react';
import { useAtomValue, useStore } from 'jotai';
import { hasPermissions, isStaff, type Permission } from '../../shared/rules/permissions';
import { sessionUserAtom } from '../session/session';
import { brandAtom } from '../session/brand';
import { paths } from '../routing/paths';
import { DesktopNavigation, MobileNavigation, UserGroup } from './navigation';
import { Footer } from './footer';
import { useIdleSignOut } from './idle-sign-out';
import { Spinner } from '../ui/spinner';
import { afterFirstPaint } from '../ui/after-first-paint';
import { warmOverlays } from '../ui/overlays';
// The overlays' plain forms, for a question asked when their own code could not be fetched (decision 725).
import '../ui/plain-overlays';
import { afterStore } from '../offline/load-store';
import { startOfflineEngine } from './offline-engine';
import '../offline/sync-status.css';

/**
 * The header's sync status reads the device's store: its code comes after the first paint, in a
 * line of the same height meanwhile, so nothing moves (docs/decisions.md (630)).
 */
const SyncStatus = lazy(() =>
  afterStore(() => import('../offline/sync-status')).then((module) => ({ default: module.SyncStatus })),
);
const syncStatusSlot = <div className="sync-status" aria-hidden="true" />;

/** What the router table puts on each private route (router.tsx). */
export interface RouteHandle {
  permissions: readonly Permission[];
}

function requiredPermissions(matches: ReturnType<typeof useMatches>): Permission[] {
  return matches.flatMap((match) => (match.handle as RouteHandle | undefined)?.permissions ?? []);
}

/**
 * The shell of every private screen: header (yellow for staff, blue for the others) with the
 * navigation, the page, and the footer. A route the role may not open sends the user to /.
 */
export default function Layout() {
  const user = useAtomValue(sessionUserAtom);
  const { productName } = useAtomValue(brandAtom);
  const matches = useMatches();
  const navigation = useNavigation();
  useIdleSignOut();
  const store = useStore();
  // The offline engine (Dexie, outbox): private screens only, never /sign-in, loaded after the first paint.
  useEffect(() => startOfflineEngine(store), [store]);
  // Confirmations and toasts are asked for offline too: their code is fetched once the screen is idle.
  useEffect(() => afterFirstPaint(warmOverlays), []);

  // RequireAuth renders this layout only with a session.
  if (!user) return null;
  const allowed = hasPermissions(user.role, requiredPermissions(matches));
  const tone = isStaff(user.role) ? 'staff' : 'member';

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className={`site-header site-header--${tone}`}>
        <div className="site-header__inner">
          <Link to={paths.home.url()} className="brand">
            {productName}
          </Link>
          <div className="desktop-only">
            <UserGroup user={user} />
          </div>
          <MobileNavigation user={user} />
        </div>
        <div className="site-header__nav desktop-only">
          <DesktopNavigation user={user} />
        </div>
        <Suspense fallback={syncStatusSlot}>
          <SyncStatus />
        </Suspense>
        <div className="route-progress" aria-hidden={navigation.state === 'idle'}>
          {navigation.state === 'idle' ? null : <Spinner />}
        </div>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        {allowed ? <Outlet /> : <Navigate to={paths.home.url()} replace />}
      </main>
      <Footer />
    </div>
  );
}
