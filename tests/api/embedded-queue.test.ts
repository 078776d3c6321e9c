import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '../../src/server/db/connection';
import { runAsRequestWork } from '../../src/server/db/request-work';

/**
 * The embedded database's queue (db/pglite-queue.ts, docs/decisions.md 672), on the real
 * database: the order in which PGlite ran the statements is read from a sequence each statement
 * draws from.
 */
describe.skipIf(process.env.API_TEST_DB === 'postgres')('the embedded database statement queue', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    const dump = new Blob([fs.readFileSync(inject('pgliteMigratedDump'))]);
    handle = await openDatabase({ dataDir: 'memory://', startFrom: dump });
    await handle.db.execute(sql`create sequence queue_order`);
  });
  afterAll(() => handle?.close());

  /** One request of three statements (its session, its page, its total), as a list makes. */
  const request = (name: string) =>
    new Promise<{ name: string; order: number[] }>((resolve, reject) =>
      runAsRequestWork(() => {
        (async () => {
          const order: number[] = [];
          for (let i = 0; i < 3; i++) {
            const [row] = await queryRows<{ n: string }>(handle.db, sql`select nextval('queue_order') as n`);
            order.push(Number(row!.n));
          }
          return { name, order };
        })().then(resolve, reject);
      }),
    );

  it("runs a begun request's statements before the first ones of the requests behind it", async () => {
    const finished: string[] = [];
    const burst = ['a', 'b', 'c', 'd', 'e'].map((name) =>
      request(name).then((done) => {
        finished.push(done.name);
        return done;
      }),
    );
    const done = await Promise.all(burst);
    // First come, first served ran a1 b1 c1 d1 e1 a2 …: every request finished with the burst.
    const start = done[0]!.order[0]!;
    expect(done.map((each) => each.order.map((n) => n - start))).toEqual([
      [0, 1, 2],
      [3, 4, 5],
      [6, 7, 8],
      [9, 10, 11],
      [12, 13, 14],
    ]);
    expect(finished).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
