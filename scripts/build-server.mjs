#!/usr/bin/env node
// Compiles the server to JavaScript for production (docs/decisions.md: 313): one ES module per
// entry under dist-server/, the project's own code bundled in, every package left to node_modules.
//   dist-server/main.js        the server (`npm run serve`: node dist-server/main.js)
//   dist-server/pdf-worker.js  the PDF worker thread, started by path beside main.js
//                              (src/server/pdf/render-in-worker.ts)
//   dist-server/pglite-cluster/ the empty, migrated embedded cluster a new DATA_DIR starts from,
//                              made by running dist-server/prepare-cluster.js once here
//                              (docs/decisions.md 575)
// Not under dist/, which the server serves to anyone. The contract (openapi.yaml) and the
// migrations are read from the project folder at run time (src/server/paths.ts).
// `--outdir <folder inside the project>` writes elsewhere (a test's own build: tests/api/graceful-shutdown.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag > 0 ? path.resolve(process.argv[outdirFlag + 1]) : path.join(root, 'dist-server');
// Compiled code finds the contract and the migrations by walking up to package.json (src/server/paths.ts).
if (path.relative(root, outdir).startsWith('..')) throw new Error(`--outdir must be inside ${root}`);

fs.rmSync(outdir, { recursive: true, force: true });
const started = Date.now();
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'src/server/main.ts',
    'pdf-worker': 'src/server/pdf/pdf-worker.ts',
    'prepare-cluster': 'src/server/prepare-cluster.ts',
  },
  outdir,
  bundle: true,
  // Packages stay imports, resolved from node_modules as under tsx: native modules (argon2),
  // PGlite's WebAssembly and data files, and the workers of other packages keep their own paths.
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: 'linked',
  // Stack traces name the TypeScript files (node --enable-source-maps).
  sourcesContent: false,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
const size = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
console.log(
  `[server] ${outputs.map(([file, o]) => `${path.relative(root, file)} ${size(o.bytes)}`).join(', ')} ` +
    `in ${Date.now() - started} ms`,
);

// initdb in PGlite peaks at about 700 MB: paid here once, not by the server's first start. The
// cluster has one place, dist-server/pglite-cluster (src/server/db/prepared-cluster.ts): a test's
// own build (--outdir) leaves it to `npm run build`, and its server runs initdb when there is none.
if (outdirFlag < 0) {
  const prepared = spawnSync(process.execPath, [path.join(outdir, 'prepare-cluster.js')], { cwd: root, stdio: 'inherit' });
  if (prepared.status !== 0) process.exit(prepared.status ?? 1);
}
