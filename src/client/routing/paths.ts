import type { Permission, Role } from '../../shared/rules/permissions';
import { isSitePath } from './site-path';

/**
 * The typed route table: every link and redirect is built from it, never by hand.
 * `pattern` is react-router's syntax; `url()` fills the parameters (encoded) and is typed by them.
 * Permissions follow the two specification tables; a route is open when the role holds all of them.
 */

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type RouteParams<P extends string> = Record<ParamNames<P>, string | number>;

type UrlArgs<P extends string> = [ParamNames<P>] extends [never] ? [] : [params: RouteParams<P>];

export type NavGroup = 'primary' | 'secondary';

export interface NavEntry {
  group: NavGroup;
  label: string;
  /** The lawyer sees some items under another name (spec: 'Loans', 'Drawdowns'). */
  lawyerLabel?: string;
}

export interface AppRoute<P extends string = string> {
  pattern: P;
  /** Public routes render without the layout and need no session. */
  public: boolean;
  permissions: readonly Permission[];
  nav?: NavEntry;
  url: (...args: UrlArgs<P>) => string;
}

interface RouteOptions {
  public?: boolean;
  permissions?: readonly Permission[];
  nav?: NavEntry;
}

function route<P extends string>(pattern: P, options: RouteOptions = {}): AppRoute<P> {
  return {
    pattern,
    public: options.public ?? false,
    permissions: options.permissions ?? [],
    ...(options.nav ? { nav: options.nav } : {}),
    url: (...args: UrlArgs<P>) => {
      const params = (args[0] ?? {}) as Record<string, string | number>;
      return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
        const value = params[name];
        if (value === undefined) throw new Error(`Missing route parameter ${name} for ${pattern}`);
        return encodeURIComponent(String(value));
      });
    },
  };
}

/** The spec's `{product}` in notification routes is `provider` (docs/decisions.md). */
const PRODUCT = 'provider';

export const paths = {
  // Public (no layout, no sign-in)
  signIn: route('/sign-in', { public: true }),
  signUp: route('/sign-up/:uuid', { public: true }),
  reset: route('/reset', { public: true }),
  resetValidate: route('/reset/validate/:uuid', { public: true }),
  resetSucceeded: route('/reset-succeeded', { public: true }),
  signUpAdmin: route('/sign-up-admin/:uuid', { public: true }),
  signUpLawyer: route('/sign-up-lawyer/:uuid', { public: true }),
  signUpCustomer: route('/sign-up-customer/:uuid', { public: true }),

  // Private
  home: route('/'),
  /** What waits on this device for the user: refused, queued, not saved yet (decision 342). */
  changes: route('/changes'),
  getStarted: route('/get-started'),
  /** This device's notifications and the kinds the person receives (decision 687). */
  notifications: route('/notifications'),
  ui: route('/ui'),

  applications: route('/applications', {
    permissions: ['readApplications'],
    nav: { group: 'primary', label: 'Applications' },
  }),
  newApplication: route('/applications/new', { permissions: ['createApplication'] }),
  applicationDetails: route('/applications/:id/details', { permissions: ['readApplication'] }),
  applicationStep: route('/applications/:id/:step', { permissions: ['updateApplication'] }),
  applicationAcceptedLawyer: route(`/applications/:id/application-${PRODUCT}-accepted-lawyer`, {
    permissions: ['readApplication'],
  }),
  applicationAcceptedCustomer: route(`/applications/:id/application-${PRODUCT}-accepted-customer`, {
    permissions: ['readApplication'],
  }),
  applicationEsignPrepared: route('/applications/:id/application-esign-prepared', {
    permissions: ['readApplication'],
  }),
  applicationCustomerAcceptedProvider: route(`/applications/:id/application-customer-accepted-${PRODUCT}`, {
    permissions: ['readApplication'],
  }),
  applicationCustomerAcceptedLawyer: route('/applications/:id/application-customer-accepted-lawyer', {
    permissions: ['readApplication'],
  }),
  /** The built-in provider's signing page, POST /docusign/sign's envelopUrl (docs/decisions.md: 286). */
  esign: route('/esign/:token', { permissions: ['readApplication'] }),

  loans: route('/loans', { nav: { group: 'primary', label: 'Request Drawdown', lawyerLabel: 'Loans' } }),
  loan: route('/loans/:id'),
  drawdowns: route('/drawdowns', {
    nav: { group: 'primary', label: 'Drawdown History', lawyerLabel: 'Drawdowns' },
  }),
  drawdown: route('/drawdowns/:id'),
  /** The lawyer's change of a requested drawdown, in the request's own form (docs/decisions.md (418)). */
  drawdownEdit: route('/drawdowns/:id/edit'),

  firms: route('/firms', { permissions: ['crudFirm'], nav: { group: 'secondary', label: 'Law firms' } }),
  addFirm: route('/firms/add', { permissions: ['crudFirm'] }),
  firm: route('/firms/:firmId'),
  addFirmLawyer: route('/firms/:firmId/add'),

  lawyers: route('/lawyers', { permissions: ['crudLawyer'], nav: { group: 'secondary', label: 'Lawyers' } }),
  addLawyer: route('/lawyers/add', { permissions: ['crudLawyer'] }),
  lawyer: route('/lawyers/:id', { permissions: ['crudLawyer'] }),

  solicitors: route('/solicitors', {
    permissions: ['crudSolicitors'],
    nav: { group: 'secondary', label: 'Solicitors' },
  }),
  addSolicitor: route('/solicitors/add', { permissions: ['crudSolicitors'] }),
  solicitor: route('/solicitors/:id', { permissions: ['crudSolicitors'] }),

  clients: route('/clients', { permissions: ['crudClients'], nav: { group: 'secondary', label: 'Clients' } }),
  client: route('/clients/:id', { permissions: ['crudClients'] }),
} as const;

export type PathKey = keyof typeof paths;

/** The navigation items in the order they are shown. */
export const navOrder: readonly PathKey[] = ['applications', 'loans', 'drawdowns', 'firms', 'lawyers', 'solicitors', 'clients'];

export function navLabel(entry: NavEntry, role: Role): string {
  return role === 'lawyer' && entry.lawyerLabel ? entry.lawyerLabel : entry.label;
}

/** Where to go back to after signing in: only a path of this site, never the sign-in page. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !isSitePath(next)) return paths.home.url();
  const pathname = next.split(/[?#]/)[0];
  if (pathname === paths.signIn.pattern) return paths.home.url();
  return next;
}

/** The sign-in page, remembering the page asked for (spec: the user returns there after login). */
export function signInUrl(next?: string): string {
  const base = paths.signIn.url();
  if (!next) return base;
  const target = safeNext(next);
  return target === paths.home.url() ? base : `${base}?${new URLSearchParams({ next: target }).toString()}`;
}

/** The navigation label of a route for a role, used as the title of list pages reached from the menu. */
export function navTitle(key: PathKey, role: Role): string {
  const nav = paths[key].nav;
  return nav ? navLabel(nav, role) : '';
}
