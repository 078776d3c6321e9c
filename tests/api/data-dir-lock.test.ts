import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../../src/server/db/data-dir-lock';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-data-'));
const children: ChildProcess[] = [];

interface Run {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** A real server process (npx tsx src/server/main.ts) on the shared DATA_DIR. */
function startServer(): Run {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      STATIC_DIR: '/nonexistent',
      FILES_DIR: 'memory://',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function ready(run: Run): Promise<void> {
  await expect.poll(() => run.output(), { timeout: 60_000, interval: 100 }).toMatch(/Portal ready|Error|Cannot start/);
  expect(run.output()).toContain('Portal ready');
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// The lock guards the embedded database only; on PostgreSQL many processes share one server by design.
describe.skipIf(process.env.API_TEST_DB === 'postgres')('one server process per embedded DATA_DIR', () => {
  it('a second process exits at once naming the first; after a crash the stale lock is taken over', async () => {
    const first = startServer();
    await ready(first);
    const lock = JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE_NAME), 'utf8'));
    // The lock names the server process (tsx runs main.ts in a child of its own).
    expect(lock).toMatchObject({ hostname: os.hostname() });

    const second = startServer();
    const code = await second.exited;
    expect(code).not.toBe(0);
    expect(second.output()).toContain(`Cannot start: ${dataDir} is in use by another server process (pid ${lock.pid}`);
    expect(second.output()).not.toContain('Portal ready');

    // kill -9: nothing is cleaned up, the lock stays behind.
    process.kill(lock.pid, 'SIGKILL');
    await expect.poll(() => processAlive(lock.pid), { timeout: 10_000 }).toBe(false);
    first.child.kill('SIGKILL');
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(true);

    const third = startServer();
    await ready(third);
    const taken = JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE_NAME), 'utf8'));
    expect(taken.pid).not.toBe(lock.pid);

    // A clean stop lets go of the folder.
    process.kill(taken.pid, 'SIGTERM');
    await third.exited;
    await expect.poll(() => fs.existsSync(path.join(dataDir, LOCK_FILE_NAME)), { timeout: 10_000 }).toBe(false);
  }, 180_000);
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
