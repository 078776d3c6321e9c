import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import { EMBEDDED_DATABASE_FOLDER, openDatabase, queryRows } from '../db/connection';
import { lockDataDir } from '../db/data-dir-lock';
import { pgliteVersion } from '../db/prepared-cluster';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DATABASE_FOLDER,
  describeFile,
  emptyFolder,
  FILES_FOLDER,
  MANIFEST_FILE,
  type BackupEntry,
  type BackupManifest,
} from './backup-format';

/** A restore that cannot be made, with the reason in words for the operator. */
export class RestoreRefused extends Error {}

/**
 * `npm run restore`: brings a backup (take-backup.ts) back into a fresh DATA_DIR, never over one
 * in use: the data folder (and FILES_DIR, when it is elsewhere) must be missing or empty. Every
 * file is checked against the manifest's checksum first, the data folder is held (its lock) while
 * it is written, and the restored database is opened once (its migrations applied, as a start
 * would) to check it reads (docs/decisions.md 572).
 */
export async function restoreBackup(
  config: Config,
  source: string,
  say: (line: string) => void,
): Promise<{ manifest: BackupManifest; users: number }> {
  if (config.databaseUrl)
    throw new RestoreRefused(
      'DATABASE_URL is set: this restores the embedded database. For PostgreSQL use pg_restore, as the README says under "Backups and restore".',
    );
  const manifest = readManifest(source);
  const { dataDir, filesDir } = config;
  if (!emptyFolder(dataDir))
    throw new RestoreRefused(
      `${dataDir} (DATA_DIR) is not empty: a backup is restored into a new or empty data folder only, never over one. ` +
        'Set DATA_DIR to a new folder, or move this one away first.',
    );
  const filesElsewhere = filesDir !== 'memory://' && path.relative(dataDir, filesDir).startsWith('..');
  if (filesElsewhere && !emptyFolder(filesDir))
    throw new RestoreRefused(`${filesDir} (FILES_DIR) is not empty: give a new or empty folder for the restored files.`);
  if (filesDir === 'memory://' && manifest.files.length > 0)
    throw new RestoreRefused('FILES_DIR is memory://: set it to a folder (or leave it unset) to restore the files.');
  if (manifest.pglite !== pgliteVersion())
    say(`Note: the backup was written by PGlite ${manifest.pglite}; this installation has ${pgliteVersion()}.`);

  say(`Checking ${manifest.database.length + manifest.files.length} file(s) against the backup's checksums…`);
  await checkEntries(path.join(source, DATABASE_FOLDER), manifest.database);
  await checkEntries(path.join(source, FILES_FOLDER), manifest.files);

  const lock = lockDataDir(dataDir);
  try {
    const location = path.join(dataDir, EMBEDDED_DATABASE_FOLDER);
    await fs.promises.cp(path.join(source, DATABASE_FOLDER), `${location}.partial`, { recursive: true });
    if (filesDir !== 'memory://' && manifest.files.length > 0)
      await fs.promises.cp(path.join(source, FILES_FOLDER), filesDir, { recursive: true });
    await fs.promises.rename(`${location}.partial`, location);
  } finally {
    lock.release();
  }
  const handle = await openDatabase({ dataDir });
  try {
    const [row] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from users`);
    return { manifest, users: row?.n ?? 0 };
  } finally {
    await handle.close();
  }
}

function readManifest(source: string): BackupManifest {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(source, MANIFEST_FILE), 'utf8')) as Partial<BackupManifest>;
  } catch {
    throw new RestoreRefused(`${source} is not a backup: it has no readable ${MANIFEST_FILE}.`);
  }
  if (manifest.format !== BACKUP_FORMAT || !Array.isArray(manifest.database) || !Array.isArray(manifest.files))
    throw new RestoreRefused(`${source} is not a backup of this portal.`);
  if (manifest.version !== BACKUP_FORMAT_VERSION)
    throw new RestoreRefused(
      `${source} is a backup of format ${manifest.version}; this version reads format ${BACKUP_FORMAT_VERSION}.`,
    );
  return manifest as BackupManifest;
}

async function checkEntries(root: string, entries: readonly BackupEntry[]): Promise<void> {
  for (const entry of entries) {
    let found: BackupEntry;
    try {
      found = await describeFile(root, entry.path);
    } catch {
      throw new RestoreRefused(`The backup is incomplete: ${path.join(root, entry.path)} is missing.`);
    }
    if (found.sha256 !== entry.sha256 || found.size !== entry.size)
      throw new RestoreRefused(`The backup is damaged: ${path.join(root, entry.path)} is not what was backed up.`);
  }
}
