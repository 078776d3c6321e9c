/**
 * `npm run files:to-postgres`: copies the files of the local folder (FILES_DIR, default
 * DATA_DIR/files) into the PostgreSQL database of DATABASE_URL, for a deployment that kept its
 * files on disk before they moved into the database (docs/decisions.md: 352). Safe to run again:
 * files already in the database are skipped. The folder is left as it is; remove it once the
 * portal serves every file.
 */
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/connection';
import { copyFiles } from '../src/server/files/copy-files';
import { PostgresFileStorage } from '../src/server/files/postgres-storage';
import { DiskFileStorage } from '../src/server/files/storage';

const config = loadConfig();
if (!config.databaseUrl) {
  console.error('Set DATABASE_URL: the files are copied into that PostgreSQL database.');
  process.exit(1);
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  console.log(`Copying the files of ${config.filesDir} into PostgreSQL…`);
  const { copied, skipped } = await copyFiles(new DiskFileStorage(config.filesDir), new PostgresFileStorage(database.db), (key) =>
    console.log(`  ${key}`),
  );
  console.log(`Copied ${copied} file(s); ${skipped} were in the database already.`);
  if (config.filesStorage !== 'postgres')
    console.log('FILES_STORAGE is "local": unset it (or set "postgres") to serve them from there.');
} finally {
  await database.close();
}
