// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { hasPermissions, roles } from '../../shared/rules/permissions';
import { paths, type AppRoute } from './paths';
import { currentUrl, renderApp } from '../test/render-app';

/**
 * The permission table, route by route: every role opens every private route. A role that holds
 * the route's permissions stays on it; any other is sent to / (and from there to /applications).
 */
const privateRoutes = (Object.values(paths) as AppRoute[]).filter((route) => !route.public && route.pattern !== '/');
const sample = (pattern: string) => pattern.replace(/:step/, 'personal').replace(/:[A-Za-z]+/g, '1');

describe.each(roles)('as %s', (role) => {
  it.each(privateRoutes.map((route) => [route.pattern, route] as const))('%s', async (_pattern, route) => {
    const url = sample(route.pattern);
    const { router } = renderApp(url, { role });
    const expected = hasPermissions(role, route.permissions) ? url : paths.applications.url();
    await waitFor(() => expect(currentUrl(router)).toBe(expected));
  });
});
