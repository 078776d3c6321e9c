import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { hasPermissions, type Role } from '../../shared/rules/permissions';
import { audienceOfRole } from '../../shared/rules/notification-kinds';
import { navLabel, navOrder, paths, type NavGroup } from '../routing/paths';
import type { SessionUser } from '../session/session';
import { useSignOut } from '../features/auth/use-sign-out';
import { Button } from '../ui/button';
import { focusPageHeading } from '../routing/scroll';
import { afterFirstPaint } from '../ui/after-first-paint';

export interface NavItem {
  to: string;
  label: string;
  group: NavGroup;
}

/**
 * The routes a role may open, in menu order. The customer has no menu (spec: "The navigation menu
 * is hidden for the customer role"); only the tertiary group (name, sign out) remains.
 */
function navItemsFor(role: Role): NavItem[] {
  if (role === 'customer') return [];
  return navOrder.flatMap((key) => {
    const route = paths[key];
    if (!route.nav || !hasPermissions(role, route.permissions)) return [];
    return [{ to: route.pattern, label: navLabel(route.nav, role), group: route.nav.group }];
  });
}

function NavGroups({ items }: { items: readonly NavItem[] }) {
  const groups: NavGroup[] = ['primary', 'secondary'];
  return (
    <>
      {groups.map((group) => {
        const inGroup = items.filter((item) => item.group === group);
        if (inGroup.length === 0) return null;
        return (
          <ul key={group} className={`nav__group nav__group--${group}`}>
            {inGroup.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className="nav__link">
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        );
      })}
    </>
  );
}

/**
 * Tertiary group: who is signed in, their notifications (every role that receives some: a firm's
 * admin receives none), and 'sign out'.
 */
export function UserGroup({ user }: { user: SessionUser }) {
  const signOut = useSignOut();
  return (
    <div className="nav__group nav__group--tertiary">
      <span className="nav__user">
        {user.name} {user.surname}
      </span>
      {audienceOfRole(user.role) ? (
        <NavLink to={paths.notifications.url()} className="nav__account-link">
          Notifications
        </NavLink>
      ) : null}
      <Button variant="link" className="nav__sign-out" onClick={() => void signOut()}>
        sign out
      </Button>
    </div>
  );
}

/** From 992 px: primary and secondary groups in a row under the header's top line. */
export function DesktopNavigation({ user }: { user: SessionUser }) {
  const items = navItemsFor(user.role);
  if (items.length === 0) return null;
  return (
    <nav aria-label="Main" className="nav nav--desktop">
      <NavGroups items={items} />
    </nav>
  );
}

const MobileMenu = lazy(() => import('./mobile-menu'));

/**
 * Below 992 px: a 'menu' button opening a full-screen overlay. Focus stays inside while open,
 * Escape closes it, and so does any route change. The dialog's code loads once the first screen
 * is drawn (decision 367); the button is always this one, so a press before the code is there
 * opens the menu as soon as it is.
 */
export function MobileNavigation({ user }: { user: SessionUser }) {
  const items = navItemsFor(user.role);
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const location = useLocation();
  const closedByRoute = useRef(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    setOpen((wasOpen) => {
      if (wasOpen) closedByRoute.current = true;
      return false;
    });
  }, [location.key]);

  // After the first paint, when the page is idle (or at the latest in a second).
  useEffect(() => afterFirstPaint(() => setWanted(true)), []);

  return (
    <div className="mobile-nav">
      <button
        ref={menuButton}
        type="button"
        className="menu-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        data-state={open ? 'open' : 'closed'}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        menu
      </button>
      {wanted ? (
        <Suspense fallback={null}>
          <MobileMenu
            open={open}
            onOpenChange={setOpen}
            onCloseAutoFocus={(event) => {
              // After following a link, focus goes to the new page's heading, not back to 'menu'
              // (the root route's own attempt, scroll.ts, ran while the menu still held focus inside it).
              // Otherwise back to 'menu' (the dialog's own trigger would, had it one).
              event.preventDefault();
              if (closedByRoute.current) focusPageHeading();
              else menuButton.current?.focus();
              closedByRoute.current = false;
            }}
          >
            {items.length > 0 ? (
              <nav aria-label="Main" className="nav nav--mobile">
                <NavGroups items={items} />
              </nav>
            ) : null}
            <UserGroup user={user} />
          </MobileMenu>
        </Suspense>
      ) : null}
    </div>
  );
}
