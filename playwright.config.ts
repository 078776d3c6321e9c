import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests in the machine's Chromium (nothing is downloaded) against the real server,
 * started on its own port with a fresh embedded database and its demo data.
 */
const port = Number(process.env.E2E_PORT ?? 4317);
const baseURL = `http://127.0.0.1:${port}`;
// The config is read by every worker; only the runner starts the server, so one directory is used.
const dataDir = process.env.E2E_DATA_DIR ?? (process.env.E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-')));

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    // A failed test keeps its trace: each action with the page's DOM, its network and console. The
    // trace's film of screenshots is left out: on this software-rendered Chromium it made the tests
    // measured an eighth slower (decision 743); the page as it ended is kept as one screenshot.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    {
      name: 'phone',
      testIgnore: /administration\.spec\.ts/,
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
    },
    { name: 'desktop', testIgnore: /administration\.spec\.ts/, use: { viewport: { width: 1280, height: 800 } } },
    // The administration journeys at a 1024 px tablet, where staff work.
    { name: 'tablet', testMatch: /administration\.spec\.ts/, use: { viewport: { width: 1024, height: 768 }, hasTouch: true } },
  ],
  webServer: {
    // The production server as `npm run serve` runs it: compiled by `npm run build`, which
    // `npm run test:e2e` and `npm test` run first (docs/decisions.md: 313).
    command: 'node dist-server/main.js',
    url: `${baseURL}/api/config`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: baseURL, NODE_ENV: 'test' },
  },
});
