import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLocked, LOCK_FILE_NAME, lockDataDir } from './data-dir-lock';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A pid that surely belonged to a process that has ended. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim());
}

function plant(dir: string, owner: object | string): string {
  const file = path.join(dir, LOCK_FILE_NAME);
  fs.writeFileSync(file, typeof owner === 'string' ? owner : JSON.stringify(owner));
  return file;
}

describe('lockDataDir', () => {
  it('writes who holds the folder, refuses a second holder naming the first, and lets go on release', () => {
    const dir = tempDir();
    const lock = lockDataDir(dir);
    const owner = JSON.parse(fs.readFileSync(lock.file, 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    expect(Date.parse(owner.startedAt)).not.toBeNaN();
    // A live process (the one running vitest) holds it.
    plant(dir, { pid: process.ppid, hostname: os.hostname(), startedAt: owner.startedAt });
    expect(() => lockDataDir(dir)).toThrow(DataDirLocked);
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`pid ${process.ppid}`));
    // Releasing removes only our own lock, never one another process has written since.
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(true);
  });

  it('takes over a stale lock: a process of this host that is gone', () => {
    const dir = tempDir();
    plant(dir, { pid: deadPid(), hostname: os.hostname(), startedAt: '2026-01-01T00:00:00.000Z' });
    const lock = lockDataDir(dir);
    expect(JSON.parse(fs.readFileSync(lock.file, 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(false);
  });

  it('never takes over a lock of another host, nor a fresh unreadable one; an old unreadable one is stale', () => {
    const dir = tempDir();
    plant(dir, { pid: deadPid(), hostname: `${os.hostname()}-elsewhere`, startedAt: '2026-01-01T00:00:00.000Z' });
    expect(() => lockDataDir(dir)).toThrow(/elsewhere/);
    const file = plant(dir, '');
    expect(() => lockDataDir(dir)).toThrow(DataDirLocked);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(file, old, old);
    lockDataDir(dir).release();
  });
});
