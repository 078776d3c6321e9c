/// <reference types="vitest/config" />
import os from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { buildBudget } from './scripts/build-budget.js';
import { checkBuildReferences } from './scripts/build-references.js';
import { codeSplitting } from './scripts/chunk-groups.js';
import { precompress } from './scripts/precompress.js';
import { inlineShellCss, prerender, routePreload } from './scripts/prerender.js';

const THEME_COLOR = '#0b3d91';
const BACKGROUND_COLOR = '#ffffff';

// The server (src/server) listens here in development; `npm run dev:client` proxies to it.
const API_ORIGIN = 'http://127.0.0.1:3000';

/**
 * Head tags an installable app needs besides the manifest link: added only when index.html does
 * not already have them, so the client app may set its own. Also keeps a single manifest link:
 * vite-plugin-pwa appends one even when index.html has it. Runs after vite-plugin-pwa's own
 * transformIndexHtml (both 'post'; this one is listed later).
 */
function pwaHeadTags(): Plugin {
  return {
    name: 'portal:pwa-head',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const missing: string[] = [];
        if (!/<meta[^>]+name=["']theme-color["']/i.test(html)) {
          missing.push(`<meta name="theme-color" content="${THEME_COLOR}">`);
        }
        if (!/<link[^>]+rel=["'](?:shortcut )?icon["']/i.test(html)) {
          missing.push('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
        }
        if (!/<link[^>]+rel=["']apple-touch-icon["']/i.test(html)) {
          missing.push('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">');
        }
        let manifestLinks = 0;
        const deduplicated = html.replace(/\s*<link[^>]+rel=["']manifest["'][^>]*>/gi, (link) =>
          ++manifestLinks === 1 ? link : '',
        );
        return missing.length === 0 ? deduplicated : deduplicated.replace('</head>', `${missing.join('')}</head>`);
      },
    },
  };
}

// Vitest loads this file too; the PWA and budget plugins only matter for `vite build`/`vite`.
const underTest = Boolean(process.env.VITEST);

export default defineConfig({
  plugins: [
    react(),
    !underTest &&
      VitePWA({
        strategies: 'injectManifest',
        srcDir: 'src/client',
        filename: 'sw.ts',
        registerType: 'prompt',
        // src/client/pwa/register.ts registers /sw.js itself (workbox-window, update prompt).
        injectRegister: false,
        // Icons are already matched by globPatterns below; listing them twice is pointless.
        includeManifestIcons: false,
        manifest: {
          id: '/',
          name: 'Litigation Funding Portal',
          short_name: 'Funding',
          description: 'Apply for litigation funding, follow your application, loans and drawdowns, and work on them offline.',
          lang: 'en-GB',
          start_url: '/',
          scope: '/',
          display: 'standalone',
          theme_color: THEME_COLOR,
          background_color: BACKGROUND_COLOR,
          icons: [
            { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
            { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
            { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          ],
        },
        injectManifest: {
          globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
          // vite-plugin-pwa adds manifest.webmanifest to the precache itself; list it once.
          globIgnores: ['**/node_modules/**/*', 'manifest.webmanifest'],
          // The worker is a classic script (see src/client/pwa/register.ts): build it as one.
          rollupFormat: 'iife',
          sourcemap: false,
        },
        devOptions: { enabled: false },
      }),
    !underTest && pwaHeadTags(),
    !underTest && inlineShellCss(),
    !underTest && routePreload(),
    !underTest && buildBudget(),
    // The public pages' HTML (decision 360): after the worker (whose precache keeps the one shell).
    !underTest && prerender(),
    // Every file the pages, the route preloads and the worker's precache name is in the build (decision 460).
    !underTest && checkBuildReferences(),
    // Last: .br and .gz beside every text file, once the service worker and the pages are written.
    !underTest && precompress(),
  ],
  build: {
    // The server serves dist/ (SPA fallback to dist/index.html).
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/bench-page-weight.mjs reads dist/.vite/manifest.json.
    manifest: true,
    sourcemap: false,
    // The signed-in first screens' modules in one chunk instead of about 40 (decision 366).
    rolldownOptions: underTest ? {} : { output: { codeSplitting: codeSplitting(process.cwd()) } },
  },
  server: {
    proxy: {
      '/api': { target: API_ORIGIN, changeOrigin: false },
      // The development mailbox page and other dev-only server pages; not /devices etc.
      '^/dev(/|$)': { target: API_ORIGIN, changeOrigin: false },
    },
  },
  test: {
    // Vitest's default is one worker fewer than the cores, so a 2-core machine ran one test file at
    // a time while the other core sat idle: the main process only collects results, and the API
    // files spend much of their time waiting (timers, child processes, PostgreSQL's own process).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        // Unit and component tests beside the code. Node by default; a component test starts
        // with `// @vitest-environment jsdom` (environmentMatchGlobs is gone in Vitest 4, and
        // `--project unit` must run both kinds).
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['src/client/test/setup.ts'],
          // A component test drives a whole screen with user events; on a busy two-core machine the
          // 5 s default cut some short while they were still right.
          testTimeout: 15_000,
        },
      },
      {
        // Each API test file builds its own app on an in-memory PGlite, loaded from one migrated dump
        // that the global setup makes. The files share a worker's modules (not isolated): each
        // builds its own app, database and config, no API test mocks a module, and importing the
        // whole server again for every file was a third of the lane's time.
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['tests/api/pglite-global-setup.ts'],
          isolate: false,
        },
      },
      {
        // The same API tests against a real PostgreSQL server (started by the global setup).
        test: {
          name: 'api-pg',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { API_TEST_DB: 'postgres' },
          globalSetup: ['tests/api/postgres-global-setup.ts'],
          isolate: false,
        },
      },
    ],
  },
});
