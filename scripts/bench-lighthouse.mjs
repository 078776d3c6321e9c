// Lighthouse 12 on the built portal, as a slow phone sees it: the mobile form factor with simulated
// throttling (Lighthouse's defaults: a mid-range phone, CPU 4× slower, a slow 4G connection), for
// /sign-in on a first visit and for /applications signed in. Prints performance and accessibility,
// FCP, LCP, CLS and TBT per page, and the goals beside them (decision 363). Figures only, no pass
// or fail. It builds nothing: `npm run build` first (it reads dist/ and dist-server/), then it
// starts the compiled server on a free port with a fresh embedded database (the demo data seeds
// itself).
//   npm run bench:lighthouse                  node scripts/bench-lighthouse.mjs [runs per page, default 3] [--page=/sign-in]
//   CHROME_PATH=/usr/bin/chromium            the browser (default: that one)
//   LIGHTHOUSE_REPORT_DIR=/tmp/lh-reports     also keep each run's full report (JSON) there
//   LIGHTHOUSE_MODULE=/tmp/lh/node_modules/lighthouse/core/index.js   a Lighthouse outside node_modules
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { root, startBenchServer } from './bench-server.mjs';

const args = process.argv.slice(2);
const RUNS = Math.max(1, Number(args.find((a) => !a.startsWith('--')) ?? 3) || 3);
/** `--page=/sign-in` measures only that page. */
const ONLY = args.find((a) => a.startsWith('--page='))?.slice('--page='.length);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const GOALS = { performance: 97, accessibility: 100, cls: 0.02, tbt: 100 };

for (const built of ['dist/index.html', 'dist-server/main.js']) {
  if (!fs.existsSync(path.join(root, built))) {
    console.error(`${built} is missing: run \`npm run build\` first (this benchmark builds nothing).`);
    process.exit(1);
  }
}

const lighthouse = await loadLighthouse();
const { base, stop } = await startBenchServer();

const pages = [
  { name: '/sign-in (first visit)', url: '/sign-in' },
  { name: '/applications (signed in)', url: '/applications', signIn: { login: 'lawyer@demo.test', password: 'Demo-pass-1' } },
].filter((page) => !ONLY || page.url === ONLY);

try {
  console.log(
    `\nLighthouse ${lighthouse.version} (mobile, simulated throttling), ${path.basename(CHROME_PATH)}, ` +
      `median of ${RUNS} run${RUNS === 1 ? '' : 's'} by performance score; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n`,
  );
  console.log('page                        performance  accessibility   FCP s   LCP s    CLS     TBT ms');
  console.log('--------------------------  -----------  -------------  ------  ------  ------  -------');
  for (const page of pages) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await auditWithRetry(page, i));
    runs.sort((a, b) => a.performance - b.performance);
    const median = runs[Math.floor(runs.length / 2)];
    const range = (key) => {
      const values = runs.map((r) => r[key]);
      return RUNS === 1 ? '' : ` (${Math.min(...values)}–${Math.max(...values)})`;
    };
    console.log(
      [
        page.name.padEnd(26),
        `${median.performance}${range('performance')}`.padStart(11),
        String(median.accessibility).padStart(13),
        (median.fcp / 1000).toFixed(2).padStart(6),
        (median.lcp / 1000).toFixed(2).padStart(6),
        median.cls.toFixed(3).padStart(6),
        String(Math.round(median.tbt)).padStart(7),
      ].join('  '),
    );
    const speeds = runs.map((r) => r.benchmarkIndex);
    console.log(`    machine: Lighthouse benchmark index ${Math.min(...speeds)}–${Math.max(...speeds)}`);
    for (const failure of median.failedAccessibility) console.log(`    accessibility: ${failure}`);
    for (const hint of median.hints) console.log(`    performance: ${hint}`);
  }
  console.log(
    `\nGoals: performance ≥ ${GOALS.performance}, accessibility ${GOALS.accessibility}, CLS ≤ ${GOALS.cls}, TBT ≤ ${GOALS.tbt} ms on each page.`,
  );
} finally {
  stop();
}

/** Lighthouse sometimes loses the trace on a busy machine (NO_NAVSTART, NO_FCP): that run again, twice at most. */
async function auditWithRetry(page, index) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(page, index);
    } catch (error) {
      if (attempt >= 3 || !/^Lighthouse:/.test(error.message)) throw error;
      console.log(`    (${page.url}: ${error.message}; running it again)`);
    }
  }
}

/**
 * One Lighthouse run in a browser of its own (a fresh profile: nothing cached, no service worker).
 * Lighthouse reaches it over the DevTools port. For a signed-in page the token is put into
 * localStorage first, on a JSON address of the same origin that loads no asset, and Lighthouse is
 * told to keep the origin's storage (it would otherwise clear it before loading the page).
 */
async function audit(page, index) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-lighthouse-'));
  const port = 9300 + Math.floor(Math.random() * 600);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROME_PATH,
    headless: true,
    args: [
      `--remote-debugging-port=${port}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-sync',
    ],
  });
  try {
    if (page.signIn) {
      const answer = await fetch(`${base}/api/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(page.signIn),
      });
      if (!answer.ok) throw new Error(`sign-in for the benchmark failed: ${answer.status}`);
      const { token, user } = await answer.json();
      const tab = context.pages()[0] ?? (await context.newPage());
      await tab.goto(`${base}/api/config`);
      await tab.evaluate(
        ([t, u]) => {
          localStorage.setItem('token', t);
          localStorage.setItem('sessionUser', u);
        },
        [token, JSON.stringify(user)],
      );
    }
    const result = await lighthouse(
      `${base}${page.url}`,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        disableStorageReset: Boolean(page.signIn),
      },
      undefined,
    );
    if (process.env.LIGHTHOUSE_REPORT_DIR) {
      const name = `${page.url.replace(/\W+/g, '-').replace(/^-/, '')}-${index + 1}.json`;
      fs.mkdirSync(process.env.LIGHTHOUSE_REPORT_DIR, { recursive: true });
      fs.writeFileSync(path.join(process.env.LIGHTHOUSE_REPORT_DIR, name), result.report);
    }
    const { categories, audits } = result.lhr;
    if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.message}`);
    // A signed-in page that fell back to /sign-in would measure the wrong screen.
    const shown = new URL(result.lhr.finalDisplayedUrl).pathname;
    if (shown !== page.url) throw new Error(`${page.url} showed ${shown} instead`);
    return {
      performance: Math.round((categories.performance.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility.score ?? 0) * 100),
      fcp: audits['first-contentful-paint'].numericValue,
      lcp: audits['largest-contentful-paint'].numericValue,
      cls: audits['cumulative-layout-shift'].numericValue,
      tbt: audits['total-blocking-time'].numericValue,
      // Lighthouse's own measure of this machine's speed at the time (a fast desktop: 1,500 and more).
      benchmarkIndex: Math.round(result.lhr.environment.benchmarkIndex),
      failedAccessibility: categories.accessibility.auditRefs
        .map((ref) => audits[ref.id])
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
        .map((a) => a.title),
      // The opportunities Lighthouse estimates save time, biggest first.
      hints: Object.values(audits)
        .filter((a) => a.details?.type === 'opportunity' && (a.details.overallSavingsMs ?? 0) >= 100)
        .sort((a, b) => b.details.overallSavingsMs - a.details.overallSavingsMs)
        .map((a) => `${a.title} (about ${Math.round(a.details.overallSavingsMs)} ms)`),
    };
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function loadLighthouse() {
  const specifier = process.env.LIGHTHOUSE_MODULE ? pathToFileURL(process.env.LIGHTHOUSE_MODULE).href : 'lighthouse';
  try {
    const module = await import(specifier);
    const pkg = process.env.LIGHTHOUSE_MODULE
      ? path.join(path.dirname(process.env.LIGHTHOUSE_MODULE), '..', 'package.json')
      : path.join(root, 'node_modules', 'lighthouse', 'package.json');
    const fn = module.default;
    fn.version = JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
    return fn;
  } catch (error) {
    console.error(`Lighthouse 12 is not installed (${error.message}): it is a devDependency, run \`npm install\`.`);
    process.exit(1);
  }
}
