// The public pages rendered to HTML at build (decision 360): `vite build` ends by rendering each of
// them with react-dom/server (src/client/app/prerender.tsx, loaded through Vite's SSR loader) into
// the built shell, as dist/prerendered/<path>.html. The server answers those paths with them
// (src/server/app.ts) and every other page with the shell; the client hydrates them (main.tsx).
// Each page carries its CSS inline (the shell's and its route's), so it paints from the HTML alone,
// and preloads its route's modules, so hydration does not wait for a chain of requests (decision 362).
import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer, type Manifest, type Plugin, type ResolvedConfig, type Rollup } from 'vite';

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

/**
 * Signed-in screens a page load often lands on (a bookmark, a reload), with the modules their
 * route loads: the layout and the page. Their chunks wait for the entry otherwise.
 */
export const SIGNED_IN_ROUTES: readonly { pattern: string; modules: readonly string[] }[] = [
  { pattern: '/', modules: ['src/client/app/layout.tsx', 'src/client/features/applications/list/home-page.tsx'] },
  {
    pattern: '/applications',
    modules: ['src/client/app/layout.tsx', 'src/client/features/applications/list/applications-page.tsx'],
  },
  {
    pattern: '/applications/:id/details',
    modules: ['src/client/app/layout.tsx', 'src/client/features/applications/details/application-details-page.tsx'],
  },
  { pattern: '/loans', modules: ['src/client/app/layout.tsx', 'src/client/features/loans/loans-page.tsx'] },
  { pattern: '/drawdowns', modules: ['src/client/app/layout.tsx', 'src/client/features/drawdowns/drawdowns-page.tsx'] },
];

/** The small script index.html loads first (decision 363); `routes` holds [pattern, js files, css files]. */
export function routePreloadScript(routes: readonly (readonly [string, readonly string[], readonly string[]])[]): string {
  return `// Written by the build (scripts/prerender.ts, decision 363): with a session stored on this device,
// fetch the signed-in route's chunks while the entry still downloads.
(function () {
  var routes = ${JSON.stringify(routes)};
  try {
    if (!localStorage.getItem('token')) return;
  } catch (e) {
    return;
  }
  var path = location.pathname.replace(/(.)\\/+$/, '$1');
  for (var i = 0; i < routes.length; i++) {
    var re = new RegExp('^' + routes[i][0].replace(/:[A-Za-z]+/g, '[^/]+') + '$');
    if (!re.test(path)) continue;
    var add = function (rel, href, as) {
      var link = document.createElement('link');
      link.rel = rel;
      link.href = href;
      if (as) link.as = as;
      link.crossOrigin = '';
      document.head.appendChild(link);
    };
    routes[i][1].forEach(function (href) { add('modulepreload', href); });
    routes[i][2].forEach(function (href) { add('preload', href, 'style'); });
    return;
  }
})();
`;
}

/** The files a route preload script names (the lists routePreloadScript wrote); [] for any other script. */
export function routePreloadFiles(source: string): string[] {
  const match = /^ {2}var routes = (.*);$/m.exec(source);
  if (!match) return [];
  const routes = JSON.parse(match[1]!) as [string, string[], string[]][];
  return [...new Set(routes.flatMap(([, js, css]) => [...js, ...css]))];
}

/**
 * Each signed-in route's files: the chunks of its modules and what they import (less what the entry
 * already loads), and their CSS, read from the bundle as it will be written.
 */
export function routeFiles(bundle: Rollup.OutputBundle, root: string): [string, string[], string[]][] {
  const chunks = Object.values(bundle).filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
  // A route's module may share its chunk with others (the signed-in group, decision 366): look
  // it up among every chunk's modules, not only the chunks it is the facade of.
  const relativeId = (id: string) => path.relative(root, id).split(path.sep).join('/');
  const byModule = new Map(chunks.flatMap((c) => c.moduleIds.map((id) => [relativeId(id), c] as const)));
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.find((c) => c.isEntry);
  const inEntry = new Set<string>();
  const visit = (file: string, into: Set<string>) => {
    if (into.has(file)) return;
    into.add(file);
    for (const imported of byFile.get(file)?.imports ?? []) visit(imported, into);
  };
  if (entry) visit(entry.fileName, inEntry);
  return SIGNED_IN_ROUTES.map((route) => {
    const files = new Set<string>();
    for (const module of route.modules) {
      const chunk = byModule.get(module);
      if (!chunk) throw new Error(`[route-preload] ${module} is not a chunk of the build`);
      visit(chunk.fileName, files);
    }
    const js = [...files].filter((file) => !inEntry.has(file));
    const css = [...new Set(js.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]))];
    return [route.pattern, js.map((f) => `/${f}`), css.map((f) => `/${f}`)];
  });
}

/**
 * Emits the route preload script and puts it into index.html before the entry (an async classic
 * script: it runs as soon as it arrives, without waiting for the entry's modules).
 *
 * It reads the bundle only after Vite's own generateBundle hooks (the hook's 'post' order): Vite's
 * CSS plugin removes there the chunks that held nothing but CSS (a module importing only a
 * stylesheet, ui/field.css) and moves their stylesheets to their importers. Read any earlier, the
 * list named those removed chunks, and every signed-in page load asked for a script the server
 * answers 404 (docs/decisions.md (460)). index.html is written by then too, so its script tag is
 * added to the written page.
 */
export function routePreload(): Plugin {
  let root = process.cwd();
  return {
    name: 'portal:route-preload',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (!page || page.type !== 'asset') return;
        const reference = this.emitFile({
          type: 'asset',
          name: 'route-preload.js',
          source: routePreloadScript(routeFiles(bundle, root)),
        });
        const fileName = this.getFileName(reference);
        const html = typeof page.source === 'string' ? page.source : Buffer.from(page.source).toString('utf8');
        if (!html.includes('<script type="module"')) this.error('[route-preload] index.html has no module script');
        page.source = html.replace(
          '<script type="module"',
          `<script async src="/${fileName}"></script>\n    <script type="module"`,
        );
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
