// Page-weight budget. The portal is used on phones over poor connections, so the JavaScript a
// user must download before the sign-in screen appears is capped. The cap is checked on every
// `vite build` by the plugin below; `npm run bench` (scripts/bench-page-weight.mjs) reports the
// same figure for every lazy route using the same functions, read from .vite/manifest.json.
// The figure is what the browser downloads: the brotli file the server sends (scripts/precompress.ts,
// docs/decisions.md: 311); the gzip figure is reported beside it for clients without brotli.
import { relative } from 'node:path';
import type { Manifest, Plugin, ResolvedConfig, Rolldown } from 'vite';
import { brotliBytes, gzipBytes } from './precompress.js';

/**
 * 105 KB brotli: entry chunk + its static imports + the sign-in route chunk + its static imports.
 * The former 120 KB gzipped cap in brotli terms (this code is 13 % smaller in brotli), rounded up
 * (docs/decisions.md: 311). Raised to 107 KB (463) when the one connection state (a failed request
 * counts as offline, with its probe) and the focus return after a confirmation joined the entry:
 * every page needs both from its first paint.
 */
export const SIGN_IN_BUDGET_BYTES = 107 * 1024;
/** The module the sign-in route is lazily loaded from (owned by the client app). */
export const SIGN_IN_MODULE = 'src/client/features/auth/sign-in-page.tsx';

/** One output chunk, as far as page weight is concerned. File names are relative to outDir. */
export interface ChunkNode {
  file: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  /** Root-relative source modules this chunk holds (the manifest only knows the facade one). */
  modules: string[];
  /** Chunk files imported statically (they load before the chunk runs). */
  imports: string[];
  /** Chunk files imported with import() (routes and other lazy code). */
  dynamicImports: string[];
  /** CSS files the chunk brings in. */
  css: string[];
}

export type ChunkGraph = Map<string, ChunkNode>;

export interface RouteWeight {
  js: string[];
  css: string[];
  /** Brotli (quality 11), as the server sends it to every current browser: the budget's figure. */
  jsBytes: number;
  cssBytes: number;
  /** Gzip -9, what a client without brotli downloads. */
  jsGzipBytes: number;
  cssGzipBytes: number;
}

/** Gzipped size at level 9 (the .gz file beside each asset). */
export function gzipSize(content: string | Uint8Array): number {
  return gzipBytes(content).length;
}

/** Brotli size at quality 11 (the .br file beside each asset, what browsers download). */
export function brotliSize(content: string | Uint8Array): number {
  return brotliBytes(content).length;
}

const normalize = (path: string) => path.replaceAll('\\', '/');

/** From the `bundle` a Vite/Rolldown build hands to generateBundle/writeBundle. */
export function graphFromBundle(bundle: Rolldown.OutputBundle, root: string): ChunkGraph {
  const graph: ChunkGraph = new Map();
  for (const output of Object.values(bundle)) {
    if (output.type !== 'chunk') continue;
    graph.set(output.fileName, {
      file: output.fileName,
      isEntry: output.isEntry,
      isDynamicEntry: output.isDynamicEntry,
      // Virtual modules start with \0 and have no source file: keep only real paths.
      modules: output.moduleIds
        .filter((id) => !id.startsWith('\0'))
        .map((id) => normalize(relative(root, id.split('?')[0] ?? id))),
      imports: [...output.imports],
      dynamicImports: [...output.dynamicImports],
      css: [...(output.viteMetadata?.importedCss ?? [])],
    });
  }
  return graph;
}

/** From dist/.vite/manifest.json (`build.manifest: true`). */
export function graphFromManifest(manifest: Manifest): ChunkGraph {
  const graph: ChunkGraph = new Map();
  const fileOf = (key: string) => manifest[key]?.file ?? key;
  for (const chunk of Object.values(manifest)) {
    if (!chunk.file.endsWith('.js')) continue;
    graph.set(chunk.file, {
      file: chunk.file,
      isEntry: chunk.isEntry === true,
      isDynamicEntry: chunk.isDynamicEntry === true,
      modules: chunk.src ? [normalize(chunk.src)] : [],
      imports: (chunk.imports ?? []).map(fileOf),
      dynamicImports: (chunk.dynamicImports ?? []).map(fileOf),
      css: [...(chunk.css ?? [])],
    });
  }
  return graph;
}

/** The static entry chunks: what index.html loads before any route is chosen. */
export function entryChunks(graph: ChunkGraph): string[] {
  return [...graph.values()].filter((chunk) => chunk.isEntry).map((chunk) => chunk.file);
}

/** The chunk that holds a source module (root-relative path), if it is in the bundle. */
export function chunkOfModule(graph: ChunkGraph, module: string): string | undefined {
  const wanted = normalize(module);
  for (const chunk of graph.values()) {
    if (chunk.modules.includes(wanted)) return chunk.file;
  }
  return undefined;
}

/** The given chunks and, transitively, everything they import statically; deduplicated. */
export function staticClosure(graph: ChunkGraph, roots: Iterable<string>): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...(graph.get(file)?.imports ?? []));
  }
  return [...seen];
}

/**
 * What a first visit to a route downloads: the entry chunks and their static imports, plus the
 * route's chunk and its static imports, each file counted once; and the CSS those chunks bring.
 * `read` returns a file's content by its outDir-relative name.
 */
export function routeWeight(
  graph: ChunkGraph,
  routeChunk: string | undefined,
  read: (file: string) => string | Uint8Array,
): RouteWeight {
  const roots = entryChunks(graph);
  if (routeChunk) roots.push(routeChunk);
  const js = staticClosure(graph, roots);
  const css = [...new Set(js.flatMap((file) => graph.get(file)?.css ?? []))];
  const sum = (files: string[], size: (content: string | Uint8Array) => number) =>
    files.reduce((total, file) => total + size(read(file)), 0);
  return {
    js,
    css,
    jsBytes: sum(js, brotliSize),
    cssBytes: sum(css, brotliSize),
    jsGzipBytes: sum(js, gzipSize),
    cssGzipBytes: sum(css, gzipSize),
  };
}

export const formatKB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Fails `vite build` when the JavaScript needed to render /sign-in is above the budget, and
 * prints the figure otherwise. Runs after the bundle is written, on the client build only
 * (vite-plugin-pwa builds the service worker in a separate build without this plugin).
 */
export function buildBudget(options: { limitBytes?: number; module?: string } = {}): Plugin {
  const limitBytes = options.limitBytes ?? SIGN_IN_BUDGET_BYTES;
  const module = options.module ?? SIGN_IN_MODULE;
  let config: ResolvedConfig;
  return {
    name: 'portal:build-budget',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle(_options, bundle) {
      if (config.build.ssr) return;
      const graph = graphFromBundle(bundle, config.root);
      const routeChunk = chunkOfModule(graph, module);
      const read = (file: string) => {
        const output = bundle[file];
        if (output?.type === 'chunk') return output.code;
        if (output?.type === 'asset') return output.source;
        throw new Error(`build budget: ${file} is not in the bundle`);
      };
      if (!routeChunk) {
        // Without the route's chunk the figure would cover the entry chunks only and always pass:
        // a renamed or moved sign-in page must not silently drop the budget.
        this.error(
          `Page-weight budget: ${module} is not in the bundle, so the JavaScript needed to render ` +
            `/sign-in cannot be measured. If the sign-in page moved, update SIGN_IN_MODULE in ` +
            `scripts/build-budget.ts (or the module option of buildBudget()).`,
        );
      }
      const weight = routeWeight(graph, routeChunk, read);
      const figure =
        `${formatKB(weight.jsBytes)} brotli (${weight.jsBytes} bytes; ${formatKB(weight.jsGzipBytes)} gzipped) ` +
        `in ${weight.js.length} chunks`;
      if (weight.jsBytes > limitBytes) {
        this.error(
          `Page-weight budget exceeded: the JavaScript needed to render /sign-in is ${figure}; ` +
            `the budget is ${formatKB(limitBytes)} brotli (${limitBytes} bytes). ` +
            `Move code out of the entry chunk (lazy routes, dynamic import()) or out of the sign-in route. ` +
            `Chunks: ${weight.js.join(', ')}`,
        );
      }
      config.logger.info(
        `[budget] /sign-in JavaScript: ${figure}, budget ${formatKB(limitBytes)} ` +
          `(${Math.round((weight.jsBytes / limitBytes) * 100)} % used).`,
      );
    },
  };
}
