/**
 * `npm run backup [-- <folder>]`: a backup of the embedded database (DATA_DIR) and its files
 * (FILES_DIR) into a new folder, by default backups/portal-<time> here; works while the server runs
 * (docs/decisions.md 570-571). Bring it back with `npm run restore -- <folder>`. With DATABASE_URL,
 * use pg_dump (README, "Backups and restore").
 */
import path from 'node:path';
import { BackupRefused, takeBackup } from '../src/server/backup/take-backup';
import { loadConfig } from '../src/server/config';

const config = loadConfig();
const destination = path.resolve(
  process.argv[2] ?? path.join('backups', `portal-${new Date().toISOString().replace(/[:.]/g, '-')}`),
);
try {
  const manifest = await takeBackup(config, destination, (line) => console.log(line));
  const bytes = [...manifest.database, ...manifest.files].reduce((sum, entry) => sum + entry.size, 0);
  console.log(
    `Backed up the database and ${manifest.files.length} file(s) as at ${manifest.createdAt} into ${destination} (${(bytes / 1024 / 1024).toFixed(1)} MB).`,
  );
} catch (error) {
  console.error(error instanceof BackupRefused ? `Cannot back up: ${error.message}` : error);
  process.exit(1);
}
