// What the benchmark scripts share: the portal started on its own free local port with a fresh
// embedded database, and the machine's Chromium with the flags every run here uses.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Starts the server (the built PWA from `staticDir`, default dist/); answers its address and a stop. */
export async function startBenchServer({ staticDir } = {}) {
  const port = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  // The compiled server when built (`npm run build`), as in production; else the sources through tsx.
  const compiled = path.join(root, 'dist-server', 'main.js');
  const entry = fs.existsSync(compiled) ? [compiled] : [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/server/main.ts'];
  const server = spawn(process.execPath, entry, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      ...(staticDir ? { STATIC_DIR: staticDir } : {}),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // What the server said on stderr, to tell why it did not start (e.g. a build older than the
  // migrations: `npm run build` again).
  let said = '';
  server.stderr.on('data', (chunk) => {
    said = (said + chunk).slice(-4000);
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const stop = () => {
    server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const ended = await Promise.race([
      waitForServer(`${base}/api/config`).then(() => undefined),
      exited.then((code) => ({ code })),
    ]);
    if (ended) throw new Error(`the server ended (exit code ${ended.code}) before it answered:\n${said}`);
  } catch (error) {
    stop();
    throw error;
  }
  return { base, stop };
}

/** Signs in through the API (the demo lawyer by default): answers `{ token, user }`. */
export async function signInThroughApi(base, account = { login: 'lawyer@demo.test', password: 'Demo-pass-1' }) {
  const response = await fetch(`${base}/api/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (!response.ok) throw new Error(`sign-in: ${response.status}`);
  return response.json();
}

/**
 * A phone's page (390 px, touch), already signed in with `session`, its CPU `rate`× slower
 * (CDP Emulation.setCPUThrottlingRate); the service worker blocked so every run starts alike.
 */
export async function openPhonePage(browser, session, rate) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  await context.addInitScript(
    ([t, u]) => {
      localStorage.setItem('token', t);
      localStorage.setItem('sessionUser', u);
    },
    [session.token, JSON.stringify(session.user)],
  );
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  return { context, page, cdp };
}

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

async function waitForServer(url) {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the server did not answer within a minute`);
}
