// Page weight per route, from the last build (dist/.vite/manifest.json; builds first if missing).
// For each lazy route: what a first visit to it downloads (entry chunks + route chunk + their
// static imports, each once), as the browser downloads it (brotli, the .br files the server sends),
// with gzip beside it; plus what the service worker precaches. Figures only:
// the pass/fail budget is enforced by `vite build` (scripts/build-budget.ts).
//   npm run bench            node scripts/bench-page-weight.mjs [--rebuild]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');

/** @type {typeof import('./build-budget.ts')} */
const budget = await tsImport('./build-budget.ts', import.meta.url);

if (process.argv.includes('--rebuild') || !existsSync(manifestPath)) {
  console.log('Building (vite build)…');
  const result = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const graph = budget.graphFromManifest(manifest);
const cache = new Map();
const read = (file) => {
  if (!cache.has(file)) cache.set(file, readFileSync(join(dist, file)));
  return cache.get(file);
};
const br = (files) => files.reduce((total, file) => total + budget.brotliSize(read(file)), 0);
const kb = (bytes) => (bytes / 1024).toFixed(1);

const shell = budget.routeWeight(graph, undefined, read);
const shellFiles = new Set(shell.js);
const rows = [
  {
    route: '(shell: index.html entry)',
    js: shell.jsBytes,
    gz: shell.jsGzipBytes,
    own: shell.jsBytes,
    css: shell.cssBytes,
    chunks: shell.js.length,
  },
];

// Every dynamically imported chunk is a route (or a lazily loaded part of one), named by source.
// A group of routes in one chunk (the signed-in first screens, decision 366) has no source of its
// own in the manifest: it is named by the group.
const dynamicallyImported = new Set([...graph.values()].flatMap((chunk) => chunk.dynamicImports));
const groupName = (file) => {
  const entry = Object.values(manifest).find((chunk) => chunk.file === file);
  return entry?.name ? `(group: ${entry.name})` : file;
};
const lazy = [...graph.values()]
  .filter((chunk) => chunk.isDynamicEntry || dynamicallyImported.has(chunk.file))
  .map((chunk) => ({ chunk, name: chunk.modules[0] ?? groupName(chunk.file) }))
  .sort((a, b) => a.name.localeCompare(b.name));
for (const { chunk, name } of lazy) {
  const weight = budget.routeWeight(graph, chunk.file, read);
  rows.push({
    route: name.replace(/^src\/client\//, ''),
    js: weight.jsBytes,
    gz: weight.jsGzipBytes,
    own: br(weight.js.filter((file) => !shellFiles.has(file))),
    css: weight.cssBytes,
    chunks: weight.js.length,
  });
}

const header = ['lazy route chunk (source module)', 'JS br KB', '(gzip)', 'of which route', 'CSS br KB', 'chunks'];
const table = [header, ...rows.map((r) => [r.route, kb(r.js), kb(r.gz), kb(r.own), kb(r.css), String(r.chunks)])];
const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)));
const line = (row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
console.log(`\nPage weight, first visit, brotli 11 (gzip -9 beside it) (${dist})\n`);
console.log(line(table[0]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of table.slice(1)) console.log(line(row));
if (lazy.length === 0) console.log('(no lazy route chunks in the manifest)');

// The precache list is injected into sw.js as JSON by workbox-build.
const swPath = join(dist, 'sw.js');
if (existsSync(swPath)) {
  const sw = readFileSync(swPath, 'utf8');
  const urls = [...new Set([...sw.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]))];
  let raw = 0;
  let transfer = 0;
  for (const url of urls) {
    const content = read(url.replace(/^\//, ''));
    raw += content.length;
    // What the worker downloads: the .br file beside a text file (scripts/precompress.ts), an image as it is.
    transfer += /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/i.test(url)
      ? Math.min(content.length, budget.brotliSize(content))
      : content.length;
  }
  const swBytes = Buffer.byteLength(sw);
  console.log(
    `\nPrecache: ${urls.length} files, ${kb(raw)} KB (${kb(transfer)} KB downloaded, brotli); ` +
      `sw.js itself ${kb(swBytes)} KB (${kb(budget.brotliSize(sw))} KB brotli).`,
  );
} else {
  console.log('\nPrecache: dist/sw.js not found.');
}
