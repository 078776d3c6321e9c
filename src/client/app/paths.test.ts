import { describe, expect, it } from 'vitest';
import { navLabel, paths, safeNext, signInUrl } from './paths';

describe('route table', () => {
  it('fills and encodes parameters', () => {
    expect(paths.applicationDetails.url({ id: 42 })).toBe('/applications/42/details');
    expect(paths.signUp.url({ uuid: 'a b/c' })).toBe('/sign-up/a%20b%2Fc');
    expect(paths.applicationAcceptedLawyer.url({ id: 7 })).toBe('/applications/7/application-provider-accepted-lawyer');
    expect(paths.applicationCustomerAcceptedProvider.pattern).toBe(
      '/applications/:id/application-customer-accepted-provider',
    );
  });

  it('holds the permissions of the spec tables', () => {
    expect(paths.firms.permissions).toEqual(['crudFirm']);
    expect(paths.firm.permissions).toEqual([]);
    expect(paths.lawyer.permissions).toEqual(['crudLawyer']);
    expect(paths.solicitors.permissions).toEqual(['crudSolicitors']);
    expect(paths.client.permissions).toEqual(['crudClients']);
    expect(paths.applications.permissions).toEqual(['readApplications']);
    expect(paths.newApplication.permissions).toEqual(['createApplication']);
    expect(paths.applicationDetails.permissions).toEqual(['readApplication']);
    expect(paths.applicationStep.permissions).toEqual(['updateApplication']);
    expect(paths.loans.permissions).toEqual([]);
    expect(paths.drawdowns.permissions).toEqual([]);
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
