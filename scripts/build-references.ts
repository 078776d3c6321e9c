// Every file the built PWA names must be in it (docs/decisions.md (460)). A page that preloads a
// missing script gets a 404 on every load, and a service worker whose precache names one fails to
// install, so the portal would never work offline: `vite build` fails instead, naming each one.
// What is checked: the pages' scripts, module preloads, preloads, stylesheets, icons and manifest
// (index.html and the prerendered pages), the route preload script's lists, the preload lists Vite
// writes into chunks for their lazy imports, the service worker's precache and the web manifest's icons.
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { routePreloadFiles } from './prerender.js';

export interface BuildReference {
  /** The file that names it, relative to the output folder. */
  from: string;
  /** How it is named: 'modulepreload', 'script', 'stylesheet', 'route preload', 'lazy preload', 'precache'… */
  kind: string;
  /** The file named, relative to the output folder. */
  file: string;
}

/** A local path as a file of the output folder ('' for another origin, a data: URL or an anchor). */
function localFile(url: string): string {
  if (/^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i.test(url)) return '';
  return decodeURIComponent(url.replace(/[?#].*$/, '').replace(/^\.?\//, ''));
}

function* filesUnder(dir: string, base = dir): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full, base);
    else if (entry.isFile()) yield path.relative(base, full).split(path.sep).join('/');
  }
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1];

/** The scripts and links of a page: `<script src>` and `<link href>` with their rel. */
export function pageReferences(html: string): { kind: string; url: string }[] {
  const found: { kind: string; url: string }[] = [];
  for (const [tag, name] of html.matchAll(/<(script|link)\b[^>]*>/gi)) {
    if (name!.toLowerCase() === 'script') {
      const src = attribute(tag, 'src');
      if (src) found.push({ kind: 'script', url: src });
    } else {
      const href = attribute(tag, 'href');
      if (href) found.push({ kind: attribute(tag, 'rel') ?? 'link', url: href });
    }
  }
  return found;
}

/** The dependency list Vite writes into a chunk for its import() calls (`__vite__mapDeps`). */
export function lazyPreloads(code: string): string[] {
  return [...code.matchAll(/\bm\.f=(\[[^\]]*\])/g)].flatMap(([, list]) => JSON.parse(list!) as string[]);
}

/** The URLs of a service worker's precache manifest (Workbox's `[{revision, url}]` as injected). */
export function precacheUrls(code: string): string[] {
  return [...code.matchAll(/"url":"([^"]+)"/g)].map(([, url]) => url!);
}

/** Every file the output folder's pages, scripts, worker and manifest name. */
export function buildReferences(outDir: string): BuildReference[] {
  const references: BuildReference[] = [];
  const add = (from: string, kind: string, url: string) => {
    const file = localFile(url);
    if (file) references.push({ from, kind, file });
  };
  for (const from of filesUnder(outDir)) {
    const read = () => fs.readFileSync(path.join(outDir, from), 'utf8');
    if (from.endsWith('.html')) {
      for (const { kind, url } of pageReferences(read())) add(from, kind, url);
    } else if (from === 'sw.js') {
      for (const url of precacheUrls(read())) add(from, 'precache', url);
    } else if (from.endsWith('.webmanifest')) {
      const manifest = JSON.parse(read()) as { icons?: { src: string }[] };
      for (const icon of manifest.icons ?? []) add(from, 'manifest icon', icon.src);
    } else if (from.endsWith('.js')) {
      const code = read();
      for (const url of routePreloadFiles(code)) add(from, 'route preload', url);
      for (const url of lazyPreloads(code)) add(from, 'lazy preload', url);
    }
  }
  return references;
}

/** The references whose file is not in the output folder. */
export function missingReferences(outDir: string): BuildReference[] {
  return buildReferences(outDir).filter((reference) => !fs.existsSync(path.join(outDir, reference.file)));
}

/** The Vite side: once the pages are prerendered and the worker written, before compression. */
export function checkBuildReferences(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'portal:build-references',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        if (config.build.ssr || !config.build.write) return;
        const outDir = path.resolve(config.root, config.build.outDir);
        const missing = missingReferences(outDir);
        if (missing.length > 0) {
          const list = missing.map((m) => `  ${m.from} (${m.kind}): ${m.file}`).join('\n');
          throw new Error(`[build-references] the build names files it does not hold:\n${list}`);
        }
        config.logger.info(`[build-references] every file the pages, scripts and worker name is in the build`);
      },
    },
  };
}
