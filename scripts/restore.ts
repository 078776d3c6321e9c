/**
 * `npm run restore -- <backup folder>`: brings a backup made by `npm run backup` back into a new or
 * empty DATA_DIR (and FILES_DIR), refusing one that holds anything (docs/decisions.md 572). Then
 * start the server on it as usual.
 */
import path from 'node:path';
import { RestoreRefused, restoreBackup } from '../src/server/backup/restore-backup';
import { loadConfig } from '../src/server/config';

const source = process.argv[2];
if (!source) {
  console.error('Name the backup folder: npm run restore -- <folder> (with DATA_DIR set to a new or empty folder).');
  process.exit(1);
}
const config = loadConfig();
try {
  const { manifest, users } = await restoreBackup(config, path.resolve(source), (line) => console.log(line));
  console.log(
    `Restored the backup of ${manifest.createdAt} into ${config.dataDir}: the database (${users} user(s)) and ${manifest.files.length} file(s)${manifest.files.length > 0 ? ` in ${config.filesDir}` : ''}.`,
  );
} catch (error) {
  console.error(error instanceof RestoreRefused ? `Cannot restore: ${error.message}` : error);
  process.exit(1);
}
