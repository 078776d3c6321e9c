import { describe, expect, it } from 'vitest';
import type { Permission } from '../../shared/rules/permissions';
import { navLabel, paths, safeNext, signInUrl, type AppRoute } from './paths';

/**
 * The private routes of both specification documents with the permission each names (section 2 of
 * each), written out here rather than read from the code. The spec's words map to the permission
 * names of its section 6: read-applications → readApplications, create-application →
 * createApplication, read-application → readApplication, update-application → updateApplication,
 * firm-management → crudFirm, lawyer-management → crudLawyer, solicitor-management →
 * crudSolicitors, client-management → crudClients. 'none' and 'not shown' need no permission.
 */
const specRouteTable: Record<string, readonly Permission[]> = {
  '/': [],
  '/get-started': [],
  '/applications': ['readApplications'],
  '/applications/new': ['createApplication'],
  '/applications/:id/details': ['readApplication'],
  '/applications/:id/:step': ['updateApplication'],
  '/ui': [],
  '/loans': [],
  '/loans/:id': [],
  '/drawdowns': [],
  '/drawdowns/:id': [],
  '/firms': ['crudFirm'],
  '/firms/add': ['crudFirm'],
  '/firms/:firmId': [],
  '/firms/:firmId/add': [],
  '/lawyers': ['crudLawyer'],
  '/lawyers/:id': ['crudLawyer'],
  '/lawyers/add': ['crudLawyer'],
  '/solicitors': ['crudSolicitors'],
  '/solicitors/add': ['crudSolicitors'],
  '/solicitors/:id': ['crudSolicitors'],
  '/clients': ['crudClients'],
  '/clients/:id': ['crudClients'],
};

/**
 * Not in either table: the application notification pages ({product} is 'provider'). They show an
 * application's news and lead to its details, so they ask for what the details page asks for.
 */
const decidedRoutes: Record<string, readonly Permission[]> = {
  '/applications/:id/application-provider-accepted-lawyer': ['readApplication'],
  '/applications/:id/application-provider-accepted-customer': ['readApplication'],
  '/applications/:id/application-esign-prepared': ['readApplication'],
  '/applications/:id/application-customer-accepted-provider': ['readApplication'],
  '/applications/:id/application-customer-accepted-lawyer': ['readApplication'],
  // The built-in provider's signing page (docs/decisions.md 286): the client's, as the details page.
  '/esign/:token': ['readApplication'],
  // What is waiting on this device or needs the user (decision 342): everyone's own, no permission.
  '/changes': [],
  '/notifications': [],
  // The change of a requested drawdown (decision 418): as the drawdown's page; the record's abilities decide.
  '/drawdowns/:id/edit': [],
};

describe('route table', () => {
  it('fills and encodes parameters', () => {
    expect(paths.applicationDetails.url({ id: 42 })).toBe('/applications/42/details');
    expect(paths.signUp.url({ uuid: 'a b/c' })).toBe('/sign-up/a%20b%2Fc');
    expect(paths.applicationAcceptedLawyer.url({ id: 7 })).toBe('/applications/7/application-provider-accepted-lawyer');
    expect(paths.applicationCustomerAcceptedProvider.pattern).toBe('/applications/:id/application-customer-accepted-provider');
  });

  it('asks for exactly the permissions of the spec’s route tables', () => {
    const inPaths = Object.fromEntries(
      (Object.values(paths) as AppRoute[])
        .filter((route) => !route.public)
        .map((route) => [route.pattern, [...route.permissions].sort()]),
    );
    const expected = Object.fromEntries(
      Object.entries({ ...specRouteTable, ...decidedRoutes }).map(([pattern, needed]) => [pattern, [...needed].sort()]),
    );
    expect(inPaths).toEqual(expected);
  });

  it('names the lawyer’s menu items differently', () => {
    const loans = paths.loans.nav;
    expect(loans && navLabel(loans, 'lawyer')).toBe('Loans');
    expect(loans && navLabel(loans, 'admin')).toBe('Request Drawdown');
  });

  it('returns only to pages of this site, never to /sign-in', () => {
    expect(safeNext('/loans/3?tab=1')).toBe('/loans/3?tab=1');
    expect(safeNext('/sign-in')).toBe('/');
    expect(safeNext('/sign-in?next=/x')).toBe('/');
    expect(safeNext('//evil.example')).toBe('/');
    expect(safeNext('https://evil.example')).toBe('/');
    expect(safeNext(null)).toBe('/');
    expect(signInUrl('/firms')).toBe('/sign-in?next=%2Ffirms');
    expect(signInUrl('/')).toBe('/sign-in');
    expect(signInUrl()).toBe('/sign-in');
  });
});
