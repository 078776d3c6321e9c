import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { paths, type AppRoute } from '../routing/paths';
import type { RouteHandle } from './layout';
import { Root } from './root';
import { RequireAuth } from '../routing/require-auth';
import { RouteError } from './route-error';
import { PageSpinner } from '../ui/spinner';

/** Each screen is its own chunk, fetched when its route is first opened. */
function screen(load: () => Promise<ComponentType>): RouteObject['lazy'] {
  return async () => ({ Component: await load() });
}

function privateRoute(route: AppRoute, load: () => Promise<ComponentType>): RouteObject {
  const handle: RouteHandle = { permissions: route.permissions };
  return { path: route.pattern, handle, lazy: screen(load) };
}

function publicRoute(route: AppRoute, load: () => Promise<ComponentType>): RouteObject {
  return { path: route.pattern, lazy: screen(load) };
}

/**
 * The /ui gallery of primitives is for developers: a production build replaces the condition with
 * false and drops the page's chunk.
 */
function developmentRoutes(): RouteObject[] {
  if (!import.meta.env.DEV) return [];
  return [privateRoute(paths.ui, () => import('../features/dev/ui-page').then((m) => m.default))];
}

export function createRoutes(): RouteObject[] {
  return [
    {
      element: <Root />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <PageSpinner />,
      children: [
        publicRoute(paths.signIn, () => import('../features/auth/sign-in-page').then((m) => m.default)),
        publicRoute(paths.signUp, () => import('../features/auth/sign-up-page').then((m) => m.default)),
        publicRoute(paths.reset, () => import('../features/auth/reset-page').then((m) => m.default)),
        publicRoute(paths.resetValidate, () => import('../features/auth/reset-validate-page').then((m) => m.default)),
        publicRoute(paths.resetSucceeded, () => import('../features/auth/reset-succeeded-page').then((m) => m.default)),
        publicRoute(paths.signUpAdmin, () => import('../features/auth/landing-pages').then((m) => m.AdminLandingPage)),
        publicRoute(paths.signUpLawyer, () => import('../features/auth/landing-pages').then((m) => m.LawyerLandingPage)),
        publicRoute(paths.signUpCustomer, () => import('../features/auth/landing-pages').then((m) => m.CustomerLandingPage)),
        {
          element: <RequireAuth />,
          children: [
            {
              lazy: screen(() => import('./layout').then((m) => m.default)),
              children: [
                // The list, or a client's only application (decision 336).
                { index: true, lazy: screen(() => import('../features/applications/list/home-page').then((m) => m.default)) },
                privateRoute(paths.getStarted, () => import('../features/auth/get-started-page').then((m) => m.default)),
                privateRoute(paths.notifications, () =>
                  import('../features/notifications/notifications-page').then((m) => m.default),
                ),
                // The list of what waits names every feature's writes: their registrations first (decision 630).
                privateRoute(paths.changes, async () => {
                  const [page, engine] = await Promise.all([import('../offline/changes-page'), import('./offline-engine')]);
                  await engine.everyWriteRegistered();
                  return page.default;
                }),
                ...developmentRoutes(),

                privateRoute(paths.applications, () =>
                  import('../features/applications/list/applications-page').then((m) => m.default),
                ),
                privateRoute(paths.newApplication, () =>
                  import('../features/applications/new/new-application-page').then((m) => m.default),
                ),
                privateRoute(paths.applicationDetails, () =>
                  import('../features/applications/details/application-details-page').then((m) => m.default),
                ),
                privateRoute(paths.applicationAcceptedLawyer, () =>
                  import('../features/applications/details/notification-pages').then((m) => m.AcceptedLawyerPage),
                ),
                privateRoute(paths.applicationAcceptedCustomer, () =>
                  import('../features/applications/details/notification-pages').then((m) => m.AcceptedCustomerPage),
                ),
                privateRoute(paths.applicationEsignPrepared, () =>
                  import('../features/applications/details/notification-pages').then((m) => m.EsignPreparedPage),
                ),
                privateRoute(paths.applicationCustomerAcceptedProvider, () =>
                  import('../features/applications/details/notification-pages').then((m) => m.CustomerAcceptedProviderPage),
                ),
                privateRoute(paths.applicationCustomerAcceptedLawyer, () =>
                  import('../features/applications/details/notification-pages').then((m) => m.CustomerAcceptedLawyerPage),
                ),
                privateRoute(paths.esign, () => import('../features/applications/esign/signing-page').then((m) => m.default)),
                privateRoute(paths.applicationStep, () =>
                  import('../features/applications/wizard/application-step-page').then((m) => m.default),
                ),

                privateRoute(paths.loans, () => import('../features/loans/loans-page').then((m) => m.default)),
                privateRoute(paths.loan, () => import('../features/loans/loan-page').then((m) => m.default)),
                privateRoute(paths.drawdowns, () => import('../features/drawdowns/drawdowns-page').then((m) => m.default)),
                privateRoute(paths.drawdown, () => import('../features/drawdowns/drawdown-page').then((m) => m.default)),
                privateRoute(paths.drawdownEdit, () =>
                  import('../features/loans/drawdown-request/edit-request-page').then((m) => m.default),
                ),

                privateRoute(paths.firms, () => import('../features/firms/firms-page').then((m) => m.default)),
                privateRoute(paths.addFirm, () => import('../features/firms/add-firm-page').then((m) => m.default)),
                privateRoute(paths.firm, () => import('../features/firms/firm-page').then((m) => m.default)),
                privateRoute(paths.addFirmLawyer, () => import('../features/firms/add-firm-lawyer-page').then((m) => m.default)),

                privateRoute(paths.lawyers, () => import('../features/lawyers/lawyers-page').then((m) => m.default)),
                privateRoute(paths.addLawyer, () => import('../features/lawyers/add-lawyer-page').then((m) => m.default)),
                privateRoute(paths.lawyer, () => import('../features/lawyers/lawyer-page').then((m) => m.default)),

                privateRoute(paths.solicitors, () => import('../features/solicitors/solicitors-page').then((m) => m.default)),
                privateRoute(paths.addSolicitor, () =>
                  import('../features/solicitors/add-solicitor-page').then((m) => m.default),
                ),
                privateRoute(paths.solicitor, () => import('../features/solicitors/solicitor-page').then((m) => m.default)),

                privateRoute(paths.clients, () => import('../features/clients/clients-page').then((m) => m.default)),
                privateRoute(paths.client, () => import('../features/clients/client-page').then((m) => m.default)),

                { path: '*', lazy: screen(() => import('../routing/not-found-page').then((m) => m.default)) },
              ],
            },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(routes: RouteObject[] = createRoutes()) {
  return createBrowserRouter(routes);
}
