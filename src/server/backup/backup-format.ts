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

/** A regular file's size and SHA-256; a symbolic link is refused, never followed. */
export async function describeFile(root: string, relative: string): Promise<BackupEntry> {
  const handle = await fs.promises.open(path.join(root, ...relative.split('/')), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error(`${relative} is not a regular file`);
    const hash = createHash('sha256');
    await pipeline(handle.createReadStream({ autoClose: false }), hash);
    return { path: relative, size: stat.size, sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
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

/**
 * Why an entry's path cannot name a file inside its folder, or undefined when it can: relative,
 * forward slashes, no empty, `.` or `..` part, no NUL or backslash (docs/decisions.md 584).
 */
export function entryPathProblem(relative: unknown): string | undefined {
  if (typeof relative !== 'string' || relative === '') return 'is not a file name';
  if (relative.includes('\0')) return 'holds a NUL character';
  if (relative.includes('\\') || path.isAbsolute(relative) || /^[A-Za-z]:/.test(relative)) return 'is not a relative path';
  if (relative.split('/').some((part) => part === '' || part === '.' || part === '..'))
    return 'leaves its folder or is not normalized';
  return undefined;
}

/** What a folder holds, read without following any link: its sub-folders and regular files, relative, sorted. */
export interface FolderTree {
  folders: string[];
  files: string[];
}

/**
 * Reads a folder of a backup (lstat, never following a link): anything other than a folder or a
 * regular file (a symbolic link, a device, a socket) is refused with its relative path. A missing
 * folder holds nothing.
 */
export function readTree(root: string): FolderTree {
  const tree: FolderTree = { folders: [], files: [] };
  let top: fs.Stats;
  try {
    top = fs.lstatSync(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return tree;
    throw error;
  }
  if (!top.isDirectory()) throw new Error(`${path.basename(root)} is not a folder`);
  const walk = (relative: string) => {
    for (const name of fs.readdirSync(path.join(root, ...relative.split('/').filter(Boolean))).sort()) {
      const child = relative ? `${relative}/${name}` : name;
      const stat = fs.lstatSync(path.join(root, ...child.split('/')));
      if (stat.isDirectory()) {
        tree.folders.push(child);
        walk(child);
      } else if (stat.isFile()) tree.files.push(child);
      else
        throw new Error(`${path.basename(root)}/${child} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}`);
    }
  };
  walk('');
  tree.files.sort();
  tree.folders.sort();
  return tree;
}
