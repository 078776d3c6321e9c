import { migrateEmbedded, pgliteExtensions } from './db/connection';
import { PREPARED_CLUSTER, writePreparedCluster } from './db/prepared-cluster';

/**
 * The build's last step (scripts/build-server.mjs): the empty, migrated embedded cluster a new DATA_DIR
 * starts from, made here once so that a server's first start does not run initdb (docs/decisions.md 575).
 */
await writePreparedCluster(pgliteExtensions, migrateEmbedded);
console.log(`[server] prepared ${PREPARED_CLUSTER}`);
