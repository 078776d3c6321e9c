import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { EMBEDDED_DATABASE_FOLDER, openDatabase } from '../db/connection';
import { DataDirLocked, ownerGone, processStart, type LockOwner } from '../db/data-dir-lock';
import { emptyFolder, MANIFEST_FILE, type BackupManifest } from './backup-format';
import {
  answerFolder,
  BACKUP_LISTENER_FILE,
  BACKUP_SIGNAL,
  failureFile,
  requestFile,
  requestsFolder,
  type BackupListener,
} from './backup-requests';
import { writeEmbeddedBackup } from './write-backup';

/** A backup that cannot be taken, with the reason in words for the operator. */
export class BackupRefused extends Error {}

/** How long the command waits for a running server's backup. */
const WAIT_MS = Number(process.env.BACKUP_WAIT_SECONDS ?? 1800) * 1000;

/**
 * `npm run backup`: a backup of the embedded database and its files into destination (new or
 * empty). With the server stopped, the command opens the data folder itself; while a server runs
 * it holds the folder, so the server is asked to write the backup (backup-requests.ts). Says which
 * it did.
 */
export async function takeBackup(config: Config, destination: string, say: (line: string) => void): Promise<BackupManifest> {
  if (config.databaseUrl)
    throw new BackupRefused(
      'The database is PostgreSQL (DATABASE_URL): back it up with pg_dump, as the README says under "Backups and restore".',
    );
  checkDestination(config, destination);
  if (!fs.existsSync(path.join(config.dataDir, EMBEDDED_DATABASE_FOLDER, 'PG_VERSION')))
    throw new BackupRefused(`There is no embedded database in ${config.dataDir} (DATA_DIR) to back up.`);
  fs.rmSync(destination, { recursive: true, force: true });

  let handle;
  try {
    handle = await openDatabase({ dataDir: config.dataDir });
  } catch (error) {
    if (!(error instanceof DataDirLocked)) throw error;
    say(`A server is running on ${config.dataDir} (pid ${error.owner?.pid ?? 'unknown'}): asking it for the backup…`);
    return fromRunningServer(config, error.owner, destination);
  }
  try {
    say(`No server is running on ${config.dataDir}: copying it directly…`);
    return await writeEmbeddedBackup(handle, config.filesDir, destination);
  } finally {
    await handle.close();
  }
}

/**
 * The folder named for the backup, checked before anything is read or written, each problem in one
 * line (docs/decisions.md 586): new or empty, a folder, outside the data it copies, writable.
 */
function checkDestination(config: Config, destination: string): void {
  const existing = nearestExisting(destination);
  if (existing === destination) {
    if (!fs.statSync(destination).isDirectory())
      throw new BackupRefused(`${destination} is a file, not a folder: name a new or empty folder for the backup.`);
    if (!emptyFolder(destination)) throw new BackupRefused(`${destination} is not empty: give a new or empty folder.`);
  } else if (!fs.statSync(existing).isDirectory())
    throw new BackupRefused(`${destination} cannot be made: ${existing} is a file, not a folder.`);
  // Where it really is, links resolved: the part that does not exist yet cannot be a link.
  const real = path.join(fs.realpathSync(existing), path.relative(existing, destination));
  for (const [name, folder] of [
    ['DATA_DIR', config.dataDir],
    ['FILES_DIR', config.filesDir],
  ] as const) {
    if (folder === 'memory://' || !fs.existsSync(folder)) continue;
    const inside = path.relative(fs.realpathSync(folder), real);
    if (!inside.startsWith('..') && !path.isAbsolute(inside))
      throw new BackupRefused(
        `${destination} is inside ${folder} (${name}): a backup there would be part of the data it copies. Name a folder outside it.`,
      );
  }
  // The folder is made (or replaced) in its parent, and the backup moved there: tried, since the
  // permission bits do not tell (root, a read-only mount).
  const parent = path.dirname(destination);
  try {
    fs.mkdirSync(parent, { recursive: true });
    fs.rmdirSync(fs.mkdtempSync(path.join(parent, '.backup-probe-')));
  } catch (error) {
    throw new BackupRefused(
      `Cannot write into ${parent} (${(error as NodeJS.ErrnoException).code ?? 'error'}): name a folder this user may write to.`,
    );
  }
}

/** The path itself when it exists, or its nearest parent that does. */
function nearestExisting(location: string): string {
  let at = location;
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

async function fromRunningServer(config: Config, owner: LockOwner | undefined, destination: string): Promise<BackupManifest> {
  const { dataDir } = config;
  let listening: Partial<BackupListener> = {};
  try {
    listening = JSON.parse(fs.readFileSync(path.join(requestsFolder(dataDir), BACKUP_LISTENER_FILE), 'utf8'));
  } catch {
    // Not written: a server from before backups, or one still starting.
  }
  if (!owner || listening.pid !== owner.pid)
    throw new BackupRefused(
      `The server holding ${dataDir} does not answer backup requests (it is still starting, or it is a version from before them). ` +
        'Try again once it is ready, or stop it and run the backup again.',
    );
  // The signal goes only to the very process that wrote listening.json: after a crash its pid may
  // belong to another program, which SIGUSR2 would end (docs/decisions.md 583).
  if (listening.processStart === undefined || processStart(owner.pid) === undefined)
    throw new BackupRefused(
      `Cannot confirm that process ${owner.pid} is the server holding ${dataDir}: this system does not show process start times (/proc), ` +
        'or the server is a version from before they were recorded. Stop the server and run the backup again.',
    );
  if (ownerGone(owner) || processStart(owner.pid) !== listening.processStart)
    throw new BackupRefused(
      `Process ${owner.pid} is no longer the server that held ${dataDir} (it stopped, and its pid now belongs to another program). ` +
        'Run the backup again.',
    );
  const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(requestFile(dataDir, id), JSON.stringify({ requestedAt: new Date().toISOString() }));
  process.kill(owner.pid, BACKUP_SIGNAL);
  const answer = answerFolder(dataDir, id);
  const started = Date.now();
  for (;;) {
    if (fs.existsSync(path.join(answer, MANIFEST_FILE))) break;
    if (fs.existsSync(failureFile(dataDir, id))) {
      const reason = fs.readFileSync(failureFile(dataDir, id), 'utf8');
      fs.rmSync(failureFile(dataDir, id), { force: true });
      throw new BackupRefused(`The server could not write the backup: ${reason}`);
    }
    if (Date.now() - started > WAIT_MS) {
      fs.rmSync(requestFile(dataDir, id), { force: true });
      throw new BackupRefused(`The server did not write the backup within ${WAIT_MS / 1000} s; see its log.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await moveFolder(answer, destination);
  return JSON.parse(fs.readFileSync(path.join(destination, MANIFEST_FILE), 'utf8')) as BackupManifest;
}

/** A rename on the same file system; otherwise a copy, then the original removed. */
async function moveFolder(from: string, to: string): Promise<void> {
  try {
    await fs.promises.rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await fs.promises.cp(from, to, { recursive: true });
    await fs.promises.rm(from, { recursive: true, force: true });
  }
}
