import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Who holds a data folder: written into the lock file as JSON. */
export interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
  /**
   * When the kernel started that process (processStart): a pid is reused after a crash, this
   * names the one process instance. Missing where the system does not show it (no /proc), and in
   * locks written before it was recorded.
   */
  processStart?: string;
}

/**
 * The start time of a process on this host as the kernel gives it (field 22 of /proc/<pid>/stat,
 * in clock ticks since boot): with the pid it names one process instance, which a reused pid is
 * not. Undefined where /proc is missing (not Linux) or the process is gone.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: fields 3 on follow the last one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

/** A second process on the same DATA_DIR: it must stop before it opens the database. */
export class DataDirLocked extends Error {
  constructor(
    readonly file: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(
      owner
        ? `${path.dirname(file)} is in use by another server process (pid ${owner.pid} on ${owner.hostname}, started ${owner.startedAt}). ` +
            'The embedded database can be opened by one process at a time: stop that process, or give this one another DATA_DIR ' +
            `(or DATABASE_URL). If that process is surely gone, remove ${file}.`
        : `${path.dirname(file)} is in use by another server process (its lock file ${file} is being written). ` +
            `If no other server is running on this DATA_DIR, remove ${file}.`,
    );
    this.name = 'DataDirLocked';
  }
}

export const LOCK_FILE_NAME = 'server.lock';

/** A lock file that cannot be read is taken to be mid-write for this long, then stale. */
const UNREADABLE_GRACE_MS = 10_000;

/**
 * Takes the data folder for this process: the embedded database must never be opened by two
 * processes at once (each would overwrite the other's writes, and acknowledged writes were lost).
 * The lock file names the holder; a lock whose process is gone from this host (a crash, kill -9)
 * is stale and taken over. A lock from another host cannot be checked and is never taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const me: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
    processStart: processStart(process.pid),
  };
  const content = JSON.stringify(me);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, content, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(file);
      if (!isStale(file, owner)) throw new DataDirLocked(file, owner);
      removeIfUnchanged(file, owner);
      continue;
    }
    return held(file, content);
  }
  throw new DataDirLocked(file, readOwner(file));
}

function held(file: string, content: string): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Only our own lock: never one another process has taken over meanwhile.
    removeIfUnchanged(file, undefined, content);
  };
  // process.exit() skips the shutdown path: the lock still goes.
  process.on('exit', release);
  return { file, release };
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockOwner>;
    if (Number.isInteger(parsed.pid) && typeof parsed.hostname === 'string' && typeof parsed.startedAt === 'string')
      return parsed as LockOwner;
  } catch {
    // Missing, half-written or not ours: judged by its age below.
  }
  return undefined;
}

function isStale(file: string, owner: LockOwner | undefined): boolean {
  if (!owner) {
    try {
      return Date.now() - fs.statSync(file).mtimeMs > UNREADABLE_GRACE_MS;
    } catch {
      return true;
    }
  }
  return ownerGone(owner);
}

/**
 * Whether the process a lock names is gone from this host: not running, or its pid now belongs to
 * another process (a crash, then pid reuse: the start time differs). A lock from another host
 * cannot be checked and counts as held. `npm run backup` asks this again just before it signals
 * the owner (docs/decisions.md 583).
 */
export function ownerGone(owner: LockOwner): boolean {
  if (owner.hostname !== os.hostname()) return false;
  // Our own pid in a lock we did not take: a previous run of a container that reuses pids.
  if (owner.pid === process.pid) return true;
  if (!processAlive(owner.pid)) return true;
  const now = processStart(owner.pid);
  return owner.processStart !== undefined && now !== undefined && now !== owner.processStart;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the lock file only while it still says what we wrote (content) or what we judged stale
 * (owner; an unreadable one when owner is undefined): two processes taking over one stale lock at
 * once must not remove each other's new lock.
 */
function removeIfUnchanged(file: string, owner: LockOwner | undefined, content?: string): void {
  let now: string;
  try {
    now = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const unchanged =
    content !== undefined ? now === content : owner === undefined ? readOwner(file) === undefined : sameOwner(now, owner);
  if (unchanged) fs.rmSync(file, { force: true });
}

function sameOwner(text: string, owner: LockOwner): boolean {
  try {
    const other = JSON.parse(text) as LockOwner;
    return other.pid === owner.pid && other.hostname === owner.hostname && other.startedAt === owner.startedAt;
  } catch {
    return false;
  }
}
