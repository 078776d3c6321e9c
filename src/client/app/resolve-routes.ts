import { matchRoutes, type RouteObject } from 'react-router-dom';

/**
 * Loads the lazy modules of the routes that match `pathname` and puts what they give on the route
 * objects themselves, so a router made from them renders the page at once instead of its fallback.
 * The build's prerender (scripts/prerender.ts) and the client's hydration (main.tsx) both call it,
 * so the two trees are the same (decision 361).
 */
export async function resolveRoutes(routes: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const resolved = await route.lazy();
      Object.assign(route, resolved, { lazy: undefined });
    }),
  );
}
