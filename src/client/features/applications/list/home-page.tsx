import { useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { paths } from '../../../routing/paths';
import { sessionUserAtom } from '../../../session/session';
import { PageSpinner } from '../../../ui/spinner';
import { fetchApplications } from '../applications-api';
import { applicationHref } from '../wizard/wizard-routes';

/**
 * '/': where a signed-in user starts (after sign-in and 'Get started'). The applications list, except
 * for a client with exactly one application: their application itself, so a client who has just
 * joined is one tap from their form (decision 336). Offline or on any failure: the list.
 */
export default function HomePage() {
  const user = useAtomValue(sessionUserAtom);
  const customer = user?.role === 'customer';
  const [target, setTarget] = useState<string | null>(customer ? null : paths.applications.url());

  useEffect(() => {
    if (!customer || !user) return undefined;
    let current = true;
    fetchApplications({ page: 1, search: '', status: null })
      .then((list) => {
        const only = list.total === 1 ? list.items[0] : undefined;
        if (current) setTarget(only ? applicationHref(only, user.role) : paths.applications.url());
      })
      .catch(() => {
        if (current) setTarget(paths.applications.url());
      });
    return () => {
      current = false;
    };
  }, [customer, user]);

  return target ? <Navigate to={target} replace /> : <PageSpinner />;
}
