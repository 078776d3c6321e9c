#!/usr/bin/env node
// The whole test suite, in the order that fails fastest: types, lint, unit and component tests,
// API tests on embedded PGlite, the same API tests on a real PostgreSQL server, in CI the API
// tests again on Node 22 and Node 24, then the build (with its size budget), the end-to-end
// tests in Chromium, and a one-minute soak of three servers behind HAProxy under restarts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ci = Boolean(process.env.CI);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const commandFound = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
// The API tests read the documents and signed contracts with the tools a recipient would use
// (docs/decisions.md 482, 494), and the metrics with Prometheus's own checker (decision 564):
// each Debian package and the commands it brings.
const checkingTools = {
  'poppler-utils': ['pdfsig', 'pdffonts', 'pdftotext'],
  qpdf: ['qpdf'],
  openssl: ['openssl'],
  prometheus: ['promtool'],
};
const missingCheckingTools = () =>
  Object.keys(checkingTools).filter((pkg) => !checkingTools[pkg].every((command) => commandFound(command)));
function postgresFound() {
  if (process.env.PG_BIN) return fs.existsSync(path.join(process.env.PG_BIN, 'initdb'));
  const root = '/usr/lib/postgresql';
  return fs.existsSync(root) && fs.readdirSync(root).some((v) => fs.existsSync(`${root}/${v}/bin/initdb`));
}

// HAProxy (Debian's package) balances the soak's three servers; Debian puts it in /usr/sbin.
const haproxyFound = () => commandFound('haproxy') || fs.existsSync('/usr/sbin/haproxy');

const results = [];
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-reports-'));
let reportCount = 0;

/** Test counts of a step, read from the JSON report its runner wrote. */
function countsFrom(file) {
  if (!file || !fs.existsSync(file)) return undefined;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (report.stats)
    return { passed: report.stats.expected + report.stats.flaky, failed: report.stats.unexpected, skipped: report.stats.skipped };
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests };
}

function vitest(name, project, extraEnv = {}, nodeMajor = undefined, files = []) {
  const file = path.join(reports, `${++reportCount}.json`);
  const args = ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...files];
  // Another Node version: the npm registry's `node` package (its binary, fetched by npm into its
  // cache once), running vitest, whose test processes inherit that binary (decision 315).
  if (nodeMajor)
    step(name, 'npx', ['-y', '-p', `node@${nodeMajor}`, 'node', 'node_modules/vitest/vitest.mjs', ...args], extraEnv, file);
  else step(name, 'npx', ['vitest', ...args], extraEnv, file);
}

function step(name, command, args, env = {}, reportFile = undefined) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const run = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({ name, ok: run.status === 0, seconds, counts: countsFrom(reportFile) });
  if (run.status !== 0) finish(1);
}

function finish(code) {
  console.log('\nTest suite summary');
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) {
    const c = r.counts;
    if (c) for (const key of Object.keys(total)) total[key] += c[key];
    console.log(`  ${r.ok ? '✔' : '✘'} ${r.name} (${r.seconds}s)${c ? `: ${c.passed} passed, ${c.failed} failed` : ''}`);
  }
  // A step that failed without a report (types, build) counts as one failure.
  total.failed += results.filter((r) => !r.ok && !r.counts).length;
  console.log(`\n${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  process.exit(code);
}

// Chromium, PostgreSQL and the PDF tools come from Debian's packages: installed here when missing and allowed
// (root with apt-get), otherwise the run says what to install.
function installSystemPackages(packages) {
  const canInstall = process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!canInstall) return false;
  console.log(`Installing ${packages.join(' and ')} with apt-get (once)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
    stdio: 'inherit',
    env,
  });
  return update.status === 0 && install.status === 0;
}

const missing = [
  ...(fs.existsSync(chromium) ? [] : ['chromium', 'fonts-liberation']),
  ...(postgresFound() ? [] : ['postgresql']),
  ...missingCheckingTools(),
  ...(haproxyFound() ? [] : ['haproxy']),
];
if (missing.length > 0) installSystemPackages(missing);
if (missingCheckingTools().length > 0) {
  console.error(
    `The API tests check the documents and signatures with poppler-utils, qpdf and openssl, and the metrics with promtool (prometheus).\nInstall them: apt-get install -y ${missingCheckingTools().join(' ')}`,
  );
  process.exit(1);
}
if (!fs.existsSync(chromium)) {
  console.error(
    `Chromium is needed for the end-to-end tests and was not found at ${chromium}.\nInstall it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}
const hasPostgres = postgresFound();
if (!hasPostgres) {
  const message = 'PostgreSQL is needed for the API tests’ PostgreSQL lane: apt-get install -y postgresql (or set PG_BIN).';
  if (ci) {
    console.error(message);
    process.exit(1);
  }
  console.warn(`${message}\nThat lane is left out of this run.`);
}
const soakPossible = hasPostgres && haproxyFound();
if (!soakPossible) {
  const message = 'The soak needs PostgreSQL and HAProxy: apt-get install -y postgresql haproxy.';
  if (ci) {
    console.error(message);
    process.exit(1);
  }
  console.warn(`${message}\nThe soak is left out of this run.`);
}

step('types', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
step('lint (ESLint and Prettier)', 'npm', ['run', '--silent', 'lint']);
// The contract in the field's tools: Redocly's recommended rules and Spectral's OpenAPI rules (decision 542).
step('lint the contract (Redocly and Spectral)', 'npm', ['run', '--silent', 'lint:contract'], { REDOCLY_TELEMETRY: 'off' });
vitest('unit and component tests', 'unit');
vitest('API tests (embedded PGlite)', 'api');
if (hasPostgres) vitest('API tests (PostgreSQL server)', 'api-pg');
// The other maintained Node versions, in CI (or TEST_NODE_VERSIONS=1): on the embedded database,
// the API tests that exercise the runtime's own parts (decision 597). The rest is the same
// JavaScript on every version, and the PostgreSQL driver is plain JavaScript, tested on Node 20 above.
const runtimeTests = [
  'accounts', // native argon2
  'delivery', // zlib: brotli and gzip
  'dump', // the extract's ZIP and CSV
  'pdf', // the PDF worker thread
  'esign', // signing: node:crypto, the worker, PAdES
  'files', // multipart streams
  'upload-abort',
  'upload-unfinished',
  'file-storage',
  'mail-tls', // node:tls
  'idempotency',
  'health-and-metrics', // perf_hooks' event-loop lag
  'graceful-shutdown', // a compiled server process on that Node: signals, sockets
  'backup-restore', // processes, signals, the embedded database's files
  'prepared-cluster', // PGlite's WebAssembly cluster
].map((name) => `tests/api/${name}.test.ts`);
if (ci || process.env.TEST_NODE_VERSIONS === '1')
  for (const major of [22, 24])
    vitest(`API tests of the runtime (embedded PGlite) on Node ${major}`, 'api', {}, major, runtimeTests);
step('build: the PWA (with the size budget, compressed) and the server (JavaScript)', 'npm', ['run', '--silent', 'build']);
const e2eReport = path.join(reports, 'e2e.json');
step(
  'end-to-end tests (Chromium)',
  'npx',
  ['playwright', 'test', '--reporter=list,json'],
  { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport },
  e2eReport,
);
// Scale-out under faults (scripts/soak.mjs): its checks fail the run; its figures are printed.
if (soakPossible)
  step('soak: three servers behind HAProxy, each restarted and one killed', 'npm', ['run', '--silent', 'soak'], {
    SOAK_SECONDS: process.env.SOAK_SECONDS ?? '60',
  });
finish(0);
