import { Link, Navigate, Outlet, useMatches, useNavigation } from 'react-router-dom';
import { useEffect } from 'react';
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
import { SyncStatus } from '../offline/sync-status';
import { startSync } from '../offline/sync-engine';
import '../features/applications/offline/application-mutations';
import '../features/loans/offline/loan-mutations';
import '../features/drawdowns/offline/drawdown-mutations';

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
  // The offline engine (Dexie, outbox) lives in this chunk: private screens only, never /sign-in.
  useEffect(() => startSync(store), [store]);
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
        <SyncStatus />
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
