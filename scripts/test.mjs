#!/usr/bin/env node
// The whole test suite, in the order that fails fastest: types, unit and component tests,
// API tests on embedded PGlite, the same API tests on a real PostgreSQL server, then the
// build (with its size budget) and the end-to-end tests in Chromium.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const ci = Boolean(process.env.CI);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasPostgres = Boolean(process.env.PG_BIN) || (fs.existsSync('/usr/lib/postgresql') && fs.readdirSync('/usr/lib/postgresql').some((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/initdb`)));

const results = [];
function step(name, command, args, env = {}) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const run = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({ name, ok: run.status === 0, seconds });
  if (run.status !== 0) finish(1);
}

function finish(code) {
  console.log('\nTest suite summary');
  for (const r of results) console.log(`  ${r.ok ? '✔' : '✘'} ${r.name} (${r.seconds}s)`);
  const passed = results.filter((r) => r.ok).length;
  console.log(`\n${passed} passed, ${results.length - passed} failed`);
  process.exit(code);
}

if (!fs.existsSync(chromium)) {
  console.error(`Chromium is needed for the end-to-end tests and was not found at ${chromium}.\nInstall it (apt-get install -y chromium) or set CHROMIUM_PATH; .ci/run installs it for you.`);
  process.exit(1);
}
if (!hasPostgres) {
  const message = 'PostgreSQL is needed for the API tests’ PostgreSQL lane: apt-get install -y postgresql (or set PG_BIN); .ci/run installs it for you.';
  if (ci) {
    console.error(message);
    process.exit(1);
  }
  console.warn(`${message}\nThat lane is left out of this run.`);
}

step('types', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
step('unit and component tests', 'npx', ['vitest', 'run', '--project', 'unit']);
step('API tests (embedded PGlite)', 'npx', ['vitest', 'run', '--project', 'api']);
if (hasPostgres) step('API tests (PostgreSQL server)', 'npx', ['vitest', 'run', '--project', 'api-pg']);
step('build (with the size budget)', 'npx', ['vite', 'build']);
step('end-to-end tests (Chromium)', 'npx', ['playwright', 'test'], { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' });
finish(0);
