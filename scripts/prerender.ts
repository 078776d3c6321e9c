// The public pages rendered to HTML at build (decision 360): `vite build` ends by rendering each of
// them with react-dom/server (src/client/app/prerender.tsx, loaded through Vite's SSR loader) into
// the built shell, as dist/prerendered/<path>.html. The server answers those paths with them
// (src/server/app.ts) and every other page with the shell; the client hydrates them (main.tsx).
// Each page carries its CSS inline (the shell's and its route's), so it paints from the HTML alone,
// and preloads its route's modules, so hydration does not wait for a chain of requests (decision 362).
import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer, type Manifest, type Plugin, type ResolvedConfig } from 'vite';

/** A public page to prerender: its address and the module of its route (the manifest's key). */
export interface PrerenderedPage {
  path: string;
  module: string;
}

/**
 * Public pages whose HTML does not depend on the address beyond its path. The sign-up and reset
 * links carry a token that the page checks with the server first: they keep the shell (decision 361).
 */
export const PRERENDERED_PAGES: readonly PrerenderedPage[] = [
  { path: '/sign-in', module: 'src/client/features/auth/sign-in-page.tsx' },
  { path: '/reset', module: 'src/client/features/auth/reset-page.tsx' },
  { path: '/reset-succeeded', module: 'src/client/features/auth/reset-succeeded-page.tsx' },
];

/** Where a page's HTML is written, under the output folder: /sign-in → prerendered/sign-in.html. */
export const PRERENDER_DIR = 'prerendered';

export function prerenderedFile(pagePath: string): string {
  return `${PRERENDER_DIR}${pagePath}.html`;
}

/** The route's JavaScript (itself and what it imports, less what the shell already loads) and CSS. */
export function routeAssets(manifest: Manifest, module: string): { js: string[]; css: string[] } {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  const inShell = new Set<string>();
  const visit = (key: string, into: Set<string>) => {
    if (into.has(key)) return;
    into.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported, into);
  };
  if (entryKey) visit(entryKey, inShell);
  if (!manifest[module]) throw new Error(`[prerender] ${module} is not a chunk of the build`);
  const route = new Set<string>();
  visit(module, route);
  const keys = [...route].filter((key) => !inShell.has(key));
  return {
    js: keys.map((key) => manifest[key]!.file),
    css: [...new Set([...route].flatMap((key) => manifest[key]!.css ?? []))],
  };
}

/**
 * The shell with the rendered page in its root: the title from the page's heading, the shell's
 * stylesheets and the route's CSS inline in one style element, module preloads for the route.
 */
export function pageDocument(
  shell: string,
  body: string,
  assets: { js: string[]; css: string[] },
  readAsset: (file: string) => string,
): string {
  const stylesheet = /\s*<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g;
  const shellCss = [...shell.matchAll(stylesheet)].map((m) => m[1]!);
  const css = [...new Set([...shellCss, ...assets.css])].map(readAsset).join('\n');
  const heading = /<h1[^>]*>([^<]*)<\/h1>/.exec(body)?.[1];
  const preloads = assets.js.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');
  // The route's CSS is already inline; these links (matching no medium: never render-blocking,
  // applied nowhere) tell Vite's loader the files are there, so it does not add them again and
  // hold the route's module until they load.
  const present = assets.css
    .filter((file) => !shellCss.includes(file))
    .map((file) => `<link rel="stylesheet" media="not all" href="/${file}">`)
    .join('');
  let html = shell.replace(stylesheet, '');
  if (heading) html = html.replace(/<title>([^<]*)<\/title>/, (_, name: string) => `<title>${heading} | ${name}</title>`);
  html = html.replace('</head>', `${preloads}<style>${css}</style>${present}</head>`);
  if (!html.includes('<div id="root"></div>')) throw new Error('[prerender] the shell has no empty <div id="root">');
  return html.replace('<div id="root"></div>', () => `<div id="root" data-prerendered>${body}</div>`);
}

/**
 * The shell's own stylesheet (tokens, base, layout: about 10 KB, 2.5 KB brotli) inline in
 * index.html instead of a render-blocking request (decision 362). Runs where Vite writes the
 * shell, before the PWA's worker lists it, so the precache holds the shell as served.
 */
export function inlineShellCss(): Plugin {
  return {
    name: 'portal:inline-shell-css',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        return html.replace(/\s*<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (link, file: string) => {
          const asset = bundle[file];
          if (!asset || asset.type !== 'asset') return link;
          const css = typeof asset.source === 'string' ? asset.source : Buffer.from(asset.source).toString('utf8');
          return `<style>${css}</style>`;
        });
      },
    },
  };
}

/** The Vite side: after the PWA's worker is written, before the precompression (listed before it). */
export function prerender(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'portal:prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (config.build.ssr || !config.build.write) return;
        const outDir = path.resolve(config.root, config.build.outDir);
        const shell = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
        const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
        const loader = await createServer({
          root: config.root,
          configFile: false,
          mode: 'production',
          logLevel: 'error',
          appType: 'custom',
          plugins: [react()],
          server: { middlewareMode: true, hmr: false, ws: false },
        });
        try {
          const { renderPage } = (await loader.ssrLoadModule('/src/client/app/prerender.tsx')) as {
            renderPage: (url: string) => Promise<string>;
          };
          for (const page of PRERENDERED_PAGES) {
            const body = await renderPage(page.path);
            const html = pageDocument(shell, body, routeAssets(manifest, page.module), (file) =>
              fs.readFileSync(path.join(outDir, file), 'utf8'),
            );
            const target = path.join(outDir, prerenderedFile(page.path));
            fs.mkdirSync(path.dirname(target), { recursive: true });
            fs.writeFileSync(target, html);
          }
          config.logger.info(`[prerender] ${PRERENDERED_PAGES.map((p) => p.path).join(', ')} → ${PRERENDER_DIR}/`);
        } finally {
          await loader.close();
        }
      },
    },
  };
}
