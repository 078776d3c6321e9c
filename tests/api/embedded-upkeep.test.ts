import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '../../src/server/db/connection';
import { keepTablesUp } from '../../src/server/db/embedded-upkeep';

/**
 * The embedded database's upkeep (db/embedded-upkeep.ts, docs/decisions.md 745) on the real
 * PGlite, which has no autovacuum: the rows left by updates stay until the portal vacuums.
 */
describe.skipIf(process.env.API_TEST_DB === 'postgres')('the embedded database’s upkeep', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    const dump = new Blob([fs.readFileSync(inject('pgliteMigratedDump'))]);
    handle = await openDatabase({ dataDir: 'memory://', startFrom: dump });
  });
  afterAll(() => handle?.close());

  /** PostgreSQL's counts for a table, flushed first (they are otherwise written about once a second). */
  const counted = async (table: string) => {
    await handle.db.execute(sql`select pg_stat_force_next_flush()`);
    await handle.db.execute(sql`select 1`);
    const [row] = await queryRows<{ dead: number; vacuumed: string | null; analysed: string | null }>(
      handle.db,
      sql`select n_dead_tup::int as dead, last_vacuum as vacuumed, last_analyze as analysed
          from pg_stat_user_tables where relname = ${table}`,
    );
    return row!;
  };

  it('analyses every table of a new database once: the planner has no statistics of a table never counted', async () => {
    const done = await keepTablesUp(handle.db);
    expect(done).toEqual(expect.arrayContaining(['analyze applications', 'analyze loans', 'analyze drawdowns']));
    const [never] = await queryRows<{ tables: number }>(
      handle.db,
      sql`select count(*)::int as tables from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' and reltuples < 0`,
    );
    expect(never?.tables).toBe(0);
    expect(await keepTablesUp(handle.db)).toEqual([]);
  });

  it('vacuums and analyses a table whose updates left dead rows, and only that one', async () => {
    await handle.db.execute(sql`create table upkeep_probe (id int primary key, n int not null)`);
    await handle.db.execute(sql`insert into upkeep_probe select g, 0 from generate_series(1, 500) g`);
    await handle.db.execute(sql`update upkeep_probe set n = n + 1`);
    await handle.db.execute(sql`update upkeep_probe set n = n + 1`);
    expect((await counted('upkeep_probe')).dead).toBeGreaterThanOrEqual(1_000);

    const done = await keepTablesUp(handle.db);

    expect(done).toContain('vacuum and analyze upkeep_probe');
    const after = await counted('upkeep_probe');
    expect(after.dead).toBe(0);
    expect(after.vacuumed).not.toBeNull();
    expect(after.analysed).not.toBeNull();
    // The portal's tables, counted once and unchanged since, are left alone.
    expect(done).toEqual(['vacuum and analyze upkeep_probe']);
    expect(await keepTablesUp(handle.db)).toEqual([]);
  });

  it('stops between tables once the process is stopping', async () => {
    await handle.db.execute(sql`update upkeep_probe set n = n + 1`);
    expect(await keepTablesUp(handle.db, () => true)).toEqual([]);
    expect((await counted('upkeep_probe')).dead).toBeGreaterThan(0);
  });
});
