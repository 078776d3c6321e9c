import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * What a backup of the embedded database is (docs/decisions.md 570-572): a folder holding
 *   manifest.json  this description: when, from which PGlite, and every file with its size and SHA-256
 *   database/      the embedded database's folder (DATA_DIR/pglite) as it was at one instant
 *   files/         the stored files (FILES_DIR, DATA_DIR/files by default) present at that instant
 */
export const BACKUP_FORMAT = 'litigation-funding-portal backup';
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FOLDER = 'database';
export const FILES_FOLDER = 'files';

export interface BackupEntry {
  /** Relative to its folder (database/ or files/), with forward slashes. */
  path: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_FORMAT_VERSION;
  createdAt: string;
  pglite: string;
  database: BackupEntry[];
  files: BackupEntry[];
}

/** Every regular file below a folder, relative, sorted (none when it does not exist). */
export function filesBelow(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

export async function describeFile(root: string, relative: string): Promise<BackupEntry> {
  const file = path.join(root, ...relative.split('/'));
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return { path: relative, size: fs.statSync(file).size, sha256: hash.digest('hex') };
}

export async function describeFolder(root: string): Promise<BackupEntry[]> {
  const out: BackupEntry[] = [];
  for (const relative of filesBelow(root)) out.push(await describeFile(root, relative));
  return out;
}

/** A folder that is missing or holds nothing. */
export function emptyFolder(folder: string): boolean {
  return !fs.existsSync(folder) || fs.readdirSync(folder).length === 0;
}
