import fs from 'node:fs';
import path from 'node:path';
import { whileEmbeddedQuiet, type DatabaseHandle } from '../db/connection';
import { pgliteVersion } from '../db/prepared-cluster';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DATABASE_FOLDER,
  describeFolder,
  FILES_FOLDER,
  filesBelow,
  MANIFEST_FILE,
  type BackupManifest,
} from './backup-format';

/** A stored file's name while it is being written (files/storage.ts): not a file yet. */
const PARTIAL_WRITE = /\.part$/;

/** How many times a backup is started again when a stored file it listed went before it was linked or copied. */
const ATTEMPTS = 3;

/** A stored file as listed while the database was quiet: which file (inode) and its size. */
interface ListedFile {
  relative: string;
  ino: number;
  size: number;
}

/** A listed file that is gone (or was replaced) before the backup linked or copied it. */
class FileWentMeanwhile extends Error {}

/**
 * Writes a backup of an open embedded database and its files into target (which must not exist).
 * While the database is quiet (whileEmbeddedQuiet) only what must be of one instant is taken: the
 * database's folder is copied and the stored files are listed (name, inode, size). The files are
 * linked (copied when the backup is on another file system) after the database is free again
 * (docs/decisions.md 585): a file is stored under a new name before its row is committed and never
 * changed in place, so every file a row of the copy names was in the list; it is removed only
 * after its row's deletion is committed, which may be after the instant of the copy, so a listed
 * file gone (or replaced) by the time it is linked makes the whole backup start again, and after
 * three such attempts fail with the file's name. A link keeps the bytes even if the file is
 * removed afterwards. Written beside target and renamed into place when complete
 * (docs/decisions.md 570-571).
 */
export async function writeEmbeddedBackup(handle: DatabaseHandle, filesDir: string, target: string): Promise<BackupManifest> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeOnce(handle, filesDir, target);
    } catch (error) {
      if (!(error instanceof FileWentMeanwhile)) throw error;
      if (attempt === ATTEMPTS)
        throw new Error(
          `${error.message}; the backup was started ${ATTEMPTS} times and each time a stored file was deleted before it was copied. Run it again later.`,
          { cause: error },
        );
    }
  }
}

async function writeOnce(handle: DatabaseHandle, filesDir: string, target: string): Promise<BackupManifest> {
  if (fs.existsSync(target)) throw new Error(`${target} exists already`);
  const partial = `${target}.partial`;
  await fs.promises.rm(partial, { recursive: true, force: true });
  await fs.promises.mkdir(partial, { recursive: true });
  try {
    const { createdAt, listed } = await whileEmbeddedQuiet(handle, async (folder) => {
      // postmaster.pid names the running process: not part of the data.
      await fs.promises.cp(folder, path.join(partial, DATABASE_FOLDER), {
        recursive: true,
        filter: (source) => path.basename(source) !== 'postmaster.pid',
      });
      return { createdAt: new Date().toISOString(), listed: filesDir === 'memory://' ? [] : await listFiles(filesDir) };
    });
    await linkFiles(filesDir, listed, path.join(partial, FILES_FOLDER));
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      createdAt,
      pglite: pgliteVersion(),
      database: await describeFolder(path.join(partial, DATABASE_FOLDER)),
      files: await describeFolder(path.join(partial, FILES_FOLDER)),
    };
    await fs.promises.writeFile(path.join(partial, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    await fs.promises.rename(partial, target);
    return manifest;
  } catch (error) {
    await fs.promises.rm(partial, { recursive: true, force: true });
    throw error;
  }
}

async function listFiles(from: string): Promise<ListedFile[]> {
  const out: ListedFile[] = [];
  for (const relative of filesBelow(from)) {
    if (PARTIAL_WRITE.test(relative)) continue;
    try {
      const stat = await fs.promises.lstat(path.join(from, ...relative.split('/')));
      out.push({ relative, ino: stat.ino, size: stat.size });
    } catch (error) {
      // Removed since the folder was read: its row's deletion was committed before this instant.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return out;
}

async function linkFiles(from: string, listed: readonly ListedFile[], to: string): Promise<void> {
  for (const file of listed) {
    const source = path.join(from, ...file.relative.split('/'));
    const copy = path.join(to, ...file.relative.split('/'));
    await fs.promises.mkdir(path.dirname(copy), { recursive: true });
    try {
      await fs.promises.link(source, copy);
      // The link is to the listed file itself, not to another put under its name since.
      if ((await fs.promises.lstat(copy)).ino !== file.ino) throw replaced(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw deleted(file);
      // Another file system (or one without hard links): a copy, slower but the same bytes.
      if (code === 'EXDEV' || code === 'EPERM' || code === 'ENOTSUP') await copyListed(source, copy, file);
      else throw error;
    }
  }
}

/** Copies the listed file, refusing another one put under its name meanwhile. */
async function copyListed(source: string, copy: string, file: ListedFile): Promise<void> {
  try {
    if ((await fs.promises.lstat(source)).ino !== file.ino) throw replaced(file);
    await fs.promises.copyFile(source, copy, fs.constants.COPYFILE_EXCL);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw deleted(file);
    throw error;
  }
  // Stored files are never changed in place: a copy of another size is of another file.
  if ((await fs.promises.lstat(copy)).size !== file.size) throw replaced(file);
}

const deleted = (file: ListedFile) => new FileWentMeanwhile(`${file.relative} was deleted while the backup was written`);
const replaced = (file: ListedFile) => new FileWentMeanwhile(`${file.relative} was replaced while the backup was written`);
