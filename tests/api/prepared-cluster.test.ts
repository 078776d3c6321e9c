import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrateEmbedded, pgliteExtensions } from '../../src/server/db/connection';
import { copyPreparedCluster, writePreparedCluster } from '../../src/server/db/prepared-cluster';
import { MIGRATIONS_FOLDER } from '../../src/server/paths';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cluster-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

// docs/decisions.md 575: a new data folder starts from the build's cluster instead of running initdb.
describe.skipIf(process.env.API_TEST_DB === 'postgres')('the prepared embedded cluster', () => {
  it('is copied into a new data folder as a migrated database that opens and takes writes', async () => {
    const cluster = path.join(scratch, 'pglite-cluster');
    // The lane's migrated dump stands in for initdb (the build runs it).
    const dump = new Blob([fs.readFileSync(inject('pgliteMigratedDump'))]);
    await writePreparedCluster(pgliteExtensions, migrateEmbedded, cluster, dump);

    const location = path.join(scratch, 'data', 'pglite');
    expect(copyPreparedCluster(location, cluster)).toBe(true);
    expect(fs.existsSync(`${location}.partial`)).toBe(false);
    const client = await PGlite.create(location, { extensions: pgliteExtensions });
    try {
      const migrations = fs.readdirSync(MIGRATIONS_FOLDER).filter((name) => name.endsWith('.sql')).length;
      const applied = await client.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(applied.rows[0]!.n).toBe(migrations);
      await client.query(`insert into firms (name) values ('Copied Cluster LLP')`);
      expect((await client.query<{ n: number }>('select count(*)::int as n from firms')).rows[0]!.n).toBe(1);
    } finally {
      await client.close();
    }
    // The prepared cluster itself is untouched by the copy's writes.
    const again = path.join(scratch, 'again', 'pglite');
    expect(copyPreparedCluster(again, cluster)).toBe(true);
    const fresh = await PGlite.create(again, { extensions: pgliteExtensions });
    try {
      expect((await fresh.query<{ n: number }>('select count(*)::int as n from firms')).rows[0]!.n).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('made by another PGlite version, or not built, it is not used', () => {
    const cluster = path.join(scratch, 'pglite-cluster');
    fs.writeFileSync(`${cluster}.json`, JSON.stringify({ pglite: '0.0.1' }));
    const location = path.join(scratch, 'other', 'pglite');
    expect(copyPreparedCluster(location, cluster)).toBe(false);
    expect(copyPreparedCluster(location, path.join(scratch, 'never-built'))).toBe(false);
    expect(fs.existsSync(location)).toBe(false);
  });
});
