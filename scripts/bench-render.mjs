// Rendering figures in Chromium on a slow phone: a 390 px viewport with the CPU slowed 4× and a
// "fast 3G"-like network. For each screen: time to the first contentful paint, to the largest
// contentful paint, and the cumulative layout shift (which should be 0: nothing moves on its own).
// Figures only, no pass or fail. It builds the app if needed and starts its own server with a fresh
// embedded database on a free local port.
//   node scripts/bench-render.mjs        (part of npm run bench)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, root, startBenchServer } from './bench-server.mjs';

const RUNS = 5;

if (!fs.existsSync(path.join(root, 'dist', 'index.html'))) {
  const built = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const { base, stop } = await startBenchServer();

try {
  const browser = await launchChromium();
  const screens = [
    { name: '/sign-in (first visit)', url: '/sign-in' },
    { name: '/reset (first visit)', url: '/reset' },
    { name: '/applications (signed in)', url: '/applications', signIn: true },
  ];
  console.log(
    `\nRendering on a slow phone (390 px, CPU 4× slower, 1.6 Mbit/s, 150 ms latency), median of ${RUNS} runs, no cache\n`,
  );
  console.log('screen                        FCP ms   LCP ms   layout shift');
  console.log('----------------------------  -------  -------  ------------');
  for (const screen of screens) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, screen));
    const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
    console.log(
      `${screen.name.padEnd(28)}  ${String(Math.round(median('fcp'))).padStart(7)}  ${String(Math.round(median('lcp'))).padStart(7)}  ${median('cls').toFixed(3).padStart(12)}`,
    );
  }
  await browser.close();
} finally {
  stop();
}

async function measure(browser, screen) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  if (screen.signIn) {
    const response = await context.request.post(`${base}/api/auth`, {
      data: { login: 'lawyer@demo.test', password: 'Demo-pass-1' },
    });
    const { token, user } = await response.json();
    await context.addInitScript(
      ([t, u]) => {
        localStorage.setItem('token', t);
        localStorage.setItem('sessionUser', u);
      },
      [token, JSON.stringify(user)],
    );
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await page.addInitScript(() => {
    const w = window;
    w.__cls = 0;
    w.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) w.__cls += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(`${base}${screen.url}`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForTimeout(1000);
  const figures = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
    lcp: window.__lcp,
    cls: window.__cls,
  }));
  await context.close();
  return figures;
}
