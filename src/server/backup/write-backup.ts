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

/**
 * Writes a backup of an open embedded database and its files into target (which must not exist):
 * the database's folder is copied and the stored files are linked (copied when the backup is on
 * another file system) while the database is quiet (whileEmbeddedQuiet), so the copy is one
 * instant's, and every file a row names is there: a file is stored before its row is committed,
 * and removed only after its row's deletion is. Files are linked, not copied, to keep that quiet
 * moment short; a link keeps the bytes even if the file is removed afterwards. The checksums are
 * taken after the database is free again. Written beside target and renamed into place when
 * complete (docs/decisions.md 570-571).
 */
export async function writeEmbeddedBackup(handle: DatabaseHandle, filesDir: string, target: string): Promise<BackupManifest> {
  if (fs.existsSync(target)) throw new Error(`${target} exists already`);
  const partial = `${target}.partial`;
  await fs.promises.rm(partial, { recursive: true, force: true });
  await fs.promises.mkdir(partial, { recursive: true });
  try {
    const createdAt = await whileEmbeddedQuiet(handle, async (folder) => {
      // postmaster.pid names the running process: not part of the data.
      await fs.promises.cp(folder, path.join(partial, DATABASE_FOLDER), {
        recursive: true,
        filter: (source) => path.basename(source) !== 'postmaster.pid',
      });
      if (filesDir !== 'memory://') await linkFiles(filesDir, path.join(partial, FILES_FOLDER));
      return new Date().toISOString();
    });
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

async function linkFiles(from: string, to: string): Promise<void> {
  for (const relative of filesBelow(from)) {
    if (PARTIAL_WRITE.test(relative)) continue;
    const source = path.join(from, ...relative.split('/'));
    const copy = path.join(to, ...relative.split('/'));
    await fs.promises.mkdir(path.dirname(copy), { recursive: true });
    try {
      await fs.promises.link(source, copy);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Removed since the folder was listed: its row's deletion was committed before this instant.
      if (code === 'ENOENT') continue;
      // Another file system (or one without hard links): a copy, slower but the same bytes.
      if (code === 'EXDEV' || code === 'EPERM' || code === 'ENOTSUP') await fs.promises.copyFile(source, copy);
      else throw error;
    }
  }
}
