import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { sessionAtom } from '../session/session';
import { signInUrl } from './paths';
import { PageSpinner } from '../ui/spinner';

/**
 * Private routes need a session. Without one the user goes to /sign-in, which brings them back
 * to the page asked for, unless they signed out themselves.
 */
export function RequireAuth() {
  const session = useAtomValue(sessionAtom);
  const location = useLocation();
  if (session.status === 'restoring') return <PageSpinner />;
  if (session.status === 'signedOut') {
    const asked = session.reason === 'signedOut' ? undefined : `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={signInUrl(asked)} replace />;
  }
  return <Outlet />;
}
