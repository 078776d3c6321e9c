import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router-dom';
import { createRoutes } from './router';

function patterns(routes: RouteObject[]): string[] {
  return routes.flatMap((route) => [...(route.path ? [route.path] : []), ...patterns(route.children ?? [])]);
}

describe('the /ui gallery', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is a route in development', () => {
    vi.stubEnv('DEV', true);
    expect(patterns(createRoutes())).toContain('/ui');
  });

  it('does not exist in a production build (the unknown-path page answers instead)', () => {
    vi.stubEnv('DEV', false);
    const routes = patterns(createRoutes());
    expect(routes).not.toContain('/ui');
    expect(routes).toContain('*');
  });
});
