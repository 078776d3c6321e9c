import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
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
  entryPathProblem,
  FILES_FOLDER,
  MANIFEST_FILE,
  readTree,
  type BackupEntry,
  type BackupManifest,
  type FolderTree,
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
  for (const [name, folder] of [
    ['DATA_DIR', dataDir],
    ['FILES_DIR', filesDir],
  ] as const)
    if (folder !== 'memory://' && fs.existsSync(folder) && !fs.statSync(folder).isDirectory())
      throw new RestoreRefused(`${folder} (${name}) is a file, not a folder: name a new or empty folder.`);
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
  checkTopLevel(source);
  const database = checkFolder(source, DATABASE_FOLDER, manifest.database);
  const files = checkFolder(source, FILES_FOLDER, manifest.files);
  await checkEntries(path.join(source, DATABASE_FOLDER), manifest.database);
  await checkEntries(path.join(source, FILES_FOLDER), manifest.files);

  // Entry by entry, each target built from names checked above; on a failure what was written goes.
  const written: string[] = [];
  const lock = lockDataDir(dataDir);
  try {
    const location = path.join(dataDir, EMBEDDED_DATABASE_FOLDER);
    written.push(`${location}.partial`);
    await copyFolder(path.join(source, DATABASE_FOLDER), `${location}.partial`, database, manifest.database, written);
    if (filesDir !== 'memory://' && manifest.files.length > 0)
      await copyFolder(path.join(source, FILES_FOLDER), filesDir, files, manifest.files, written);
    await fs.promises.rename(`${location}.partial`, location);
  } catch (error) {
    for (const item of written.reverse()) await fs.promises.rm(item, { recursive: true, force: true });
    throw error;
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

/** The checked tree's folders, then each entry's bytes, checked again against the manifest as they are copied. */
async function copyFolder(
  from: string,
  to: string,
  tree: FolderTree,
  entries: readonly BackupEntry[],
  written: string[],
): Promise<void> {
  const makeFolder = async (folder: string) => {
    const made = await fs.promises.mkdir(folder, { recursive: true });
    if (made) written.push(made);
  };
  await makeFolder(to);
  for (const folder of tree.folders) await makeFolder(path.join(to, ...folder.split('/')));
  for (const entry of entries) {
    const target = path.join(to, ...entry.path.split('/'));
    await makeFolder(path.dirname(target));
    const source = await fs.promises.open(
      path.join(from, ...entry.path.split('/')),
      fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW,
    );
    const hash = createHash('sha256');
    try {
      written.push(target);
      await pipeline(
        source.createReadStream({ autoClose: false }),
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            hash.update(chunk);
            yield chunk;
          }
        },
        fs.createWriteStream(target, { flags: 'wx' }),
      );
    } finally {
      await source.close();
    }
    if (hash.digest('hex') !== entry.sha256)
      throw new RestoreRefused(
        `The backup changed while it was restored: ${path.join(from, entry.path)} is not what was backed up.`,
      );
  }
}

/** Beside the manifest a backup holds its two folders and nothing else. */
function checkTopLevel(source: string): void {
  const extra = fs
    .readdirSync(source)
    .filter((name) => name !== MANIFEST_FILE && name !== DATABASE_FOLDER && name !== FILES_FOLDER);
  if (extra.length > 0) throw new RestoreRefused(`The backup holds ${extra.join(', ')}, which its manifest does not list.`);
  if (!fs.lstatSync(path.join(source, MANIFEST_FILE)).isFile())
    throw new RestoreRefused(`The backup's ${MANIFEST_FILE} is not a regular file.`);
}

/**
 * A backup folder is taken only as its manifest describes it (docs/decisions.md 584): every entry
 * a plain relative path, every file and folder in it a real one (no symbolic link anywhere), and
 * nothing in it the manifest does not list. Returns the folder's tree, from which the copy's
 * targets are built.
 */
function checkFolder(source: string, folder: string, entries: readonly BackupEntry[]): FolderTree {
  for (const entry of entries) {
    const problem = entryPathProblem(entry?.path);
    if (problem)
      throw new RestoreRefused(`The backup's manifest names ${JSON.stringify(entry?.path)} in ${folder}/, which ${problem}.`);
  }
  let tree: FolderTree;
  try {
    tree = readTree(path.join(source, folder));
  } catch (error) {
    throw new RestoreRefused(`The backup holds ${(error as Error).message}: only regular files are restored.`);
  }
  const listed = new Set(entries.map((entry) => entry.path));
  if (listed.size !== entries.length) throw new RestoreRefused(`The backup's manifest names a file in ${folder}/ twice.`);
  const unlisted = tree.files.filter((file) => !listed.has(file));
  if (unlisted.length > 0)
    throw new RestoreRefused(
      `The backup holds ${unlisted.map((file) => `${folder}/${file}`).join(', ')}, which its manifest does not list.`,
    );
  return tree;
}
