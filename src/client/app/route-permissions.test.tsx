// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { hasPermissions, roles, type Role } from '../../shared/rules/permissions';
import { paths, type AppRoute } from '../routing/paths';
import { currentUrl, json, renderApp } from '../test/render-app';

/**
 * The permission table, route by route: every role opens every private route. A role that holds
 * the route's permissions sees that route's own page (its h1) at the URL it asked for; any other
 * is sent to / and from there to /applications, whose page it then sees.
 */
const privateRoutes = (Object.values(paths) as AppRoute[]).filter((route) => !route.public && route.pattern !== '/');
const sample = (pattern: string) => pattern.replace(/:step/, 'personal').replace(/:[A-Za-z]+/g, '1');

/** The h1 each private route renders (the lawyer sees the loans and drawdowns lists under other names). */
const headings: Record<string, string | ((role: Role) => string)> = {
  '/get-started': 'Account created',
  '/changes': 'Changes on this device',
  '/notifications': 'Notifications',
  '/ui': 'Interface components',
  '/applications': 'Applications',
  '/applications/new': 'New application',
  '/applications/:id/details': 'Application details',
  // The wizard is the lawyer's and the client's form: application 1 does not exist for them here.
  '/applications/:id/:step': 'The page you were looking for doesn’t exist.',
  '/applications/:id/application-provider-accepted-lawyer': 'Application accepted',
  '/applications/:id/application-provider-accepted-customer': 'Application accepted',
  '/applications/:id/application-esign-prepared': 'Documents ready to sign',
  '/applications/:id/application-customer-accepted-provider': 'Documents signed',
  '/applications/:id/application-customer-accepted-lawyer': 'Loan created',
  // Link '1' does not exist: the signing page says it cannot be opened, under its own heading.
  '/esign/:token': 'Sign your documents',
  '/loans': (role) => (role === 'lawyer' ? 'Loans' : 'Request Drawdown'),
  // Loan 1 does not answer here: the page is titled by the loan's status only once it has one.
  '/loans/:id': 'Loan',
  '/drawdowns': (role) => (role === 'lawyer' ? 'Drawdowns' : 'Drawdown History'),
  '/drawdowns/:id': 'Drawdown',
  '/drawdowns/:id/edit': 'Edit Drawdown Request',
  '/firms': 'Law firms',
  '/firms/add': 'Add Law Firm',
  '/firms/:firmId': 'Law firm',
  '/firms/:firmId/add': 'Add new Lawyer',
  '/lawyers': 'Lawyers',
  '/lawyers/add': 'Add lawyer',
  '/lawyers/:id': 'Edit lawyer',
  '/solicitors': 'Solicitors',
  '/solicitors/add': 'Add new solicitor',
  '/solicitors/:id': 'Update solicitor',
  '/clients': 'All clients',
  '/clients/:id': 'Edit client',
};

function headingOf(pattern: string, role: Role): string {
  const heading = headings[pattern];
  if (heading === undefined) throw new Error(`No heading listed for ${pattern}: add it to this test`);
  return typeof heading === 'function' ? heading(role) : heading;
}

/** Routes that also send away a role holding their permissions (the wizard is only the lawyer's and the client's). */
const roleRules: Record<string, readonly Role[]> = { '/applications/:id/:step': ['lawyer', 'customer'] };

describe.each(roles)('as %s', (role) => {
  it.each(privateRoutes.map((route) => [route.pattern, route] as const))('%s', async (_pattern, route) => {
    const url = sample(route.pattern);
    const { router } = renderApp(url, { role, handlers: { 'GET /applications/1': () => json(404, { error: 'notFound' }) } });
    const roleAllowed = roleRules[route.pattern]?.includes(role) ?? true;
    if (hasPermissions(role, route.permissions) && roleAllowed) {
      // The route's own page has rendered, and nothing has sent the user elsewhere.
      await screen.findByRole('heading', { level: 1, name: headingOf(route.pattern, role) });
      expect(currentUrl(router)).toBe(url);
    } else {
      await screen.findByRole('heading', { level: 1, name: 'Applications' });
      expect(currentUrl(router)).toBe(paths.applications.url());
    }
  });
});
