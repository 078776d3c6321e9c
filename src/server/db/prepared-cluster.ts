import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite, type Extensions } from '@electric-sql/pglite';
import { projectRoot } from '../paths';

/**
 * A new embedded database's cluster, made once by the build (scripts/build-server.mjs) instead of
 * on the server's first start: PGlite's initdb runs a second WebAssembly module beside the
 * database's own, and a first start peaked at about 850 MB resident for it and the migrations,
 * against about 400 MB for a restart. A first start now copies the build's cluster (empty,
 * migrated) into DATA_DIR and opens it as a restart does (docs/decisions.md 575).
 */
export const PREPARED_CLUSTER = path.join(projectRoot(), 'dist-server', 'pglite-cluster');
/** Beside the cluster's folder: which PGlite made it. */
const versionFile = (cluster: string) => `${cluster}.json`;

/** The installed PGlite's version: a cluster made by another version is not used. */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = JSON.parse(fs.readFileSync(path.join(projectRoot(path.dirname(entry)), 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/**
 * Makes the prepared cluster (the build's step): initdb once, migrated (the migrations grow the
 * database's WebAssembly memory too). Migrations added after the build are still applied at start.
 */
export async function writePreparedCluster(
  extensions: Extensions,
  migrate: (client: PGlite) => Promise<void>,
  cluster: string = PREPARED_CLUSTER,
  /** Loaded instead of running initdb (the tests: their migrated dump). */
  loadDataDir?: Blob,
): Promise<void> {
  fs.rmSync(cluster, { recursive: true, force: true });
  fs.rmSync(versionFile(cluster), { force: true });
  const client = await PGlite.create(cluster, { extensions, ...(loadDataDir ? { loadDataDir } : {}) });
  try {
    await migrate(client);
    // Written to its files now, so that a copy needs no recovery.
    await client.exec('checkpoint');
  } finally {
    await client.close();
  }
  fs.writeFileSync(versionFile(cluster), JSON.stringify({ pglite: pgliteVersion() }));
}

/**
 * Puts the prepared cluster into a data folder's new database folder (location, empty). False when
 * there is none (not built, or built by another PGlite): then PGlite runs initdb as before.
 */
export function copyPreparedCluster(location: string, cluster: string = PREPARED_CLUSTER): boolean {
  try {
    const made = JSON.parse(fs.readFileSync(versionFile(cluster), 'utf8')) as { pglite?: string };
    if (made.pglite !== pgliteVersion()) return false;
  } catch {
    return false;
  }
  // Copied beside it, then renamed: a copy cut short is never taken for a database.
  const partial = `${location}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.cpSync(cluster, partial, { recursive: true });
  fs.rmSync(location, { recursive: true, force: true });
  fs.renameSync(partial, location);
  return true;
}
