import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { and, asc, eq, is, Placeholder } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import type { Database } from './connection';
import { MOST_SHAPES, runShaped } from './shaped-statements';

const cases = pgTable('cases', {
  id: integer('id').primaryKey(),
  lawyerId: integer('lawyer_id').notNull(),
  status: text('status').notNull(),
});

describe('statements written once per shape', () => {
  let client: PGlite;
  let db: Database;
  /** How often the statement was written with placeholders, that is, written to be kept. */
  let keptWrites = 0;
  const casesOf = (values: { lawyerId?: number; status?: string }) =>
    runShaped(db, 'cases', values, (v) => {
      if (is(v.lawyerId, Placeholder) || is(v.status, Placeholder)) keptWrites += 1;
      return db
        .select({ id: cases.id })
        .from(cases)
        .where(and(v.lawyerId ? eq(cases.lawyerId, v.lawyerId) : undefined, v.status ? eq(cases.status, v.status) : undefined))
        .orderBy(asc(cases.id));
    });

  beforeAll(async () => {
    client = await PGlite.create('memory://');
    await client.exec(`create table cases (id int primary key, lawyer_id int not null, status text not null);
      insert into cases values (1, 1, 'draft'), (2, 1, 'approved'), (3, 2, 'draft'), (4, 2, 'draft')`);
    db = drizzle({ client }) as unknown as Database;
    // Starting PostgreSQL in WebAssembly takes a few seconds on a busy machine.
  }, 60_000);
  afterAll(() => client.close());

  it('answers each call with its own values, from the statement written once', async () => {
    expect(await casesOf({ lawyerId: 1 })).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await casesOf({ lawyerId: 2 })).toEqual([{ id: 3 }, { id: 4 }]);
    expect(await casesOf({ lawyerId: 1, status: 'draft' })).toEqual([{ id: 1 }]);
    expect(await casesOf({ lawyerId: 2, status: 'draft' })).toEqual([{ id: 3 }, { id: 4 }]);
    expect(keptWrites).toBe(2);
  });

  it('keeps a statement for each set of values present: an absent value leaves its condition out', async () => {
    expect(await casesOf({ status: 'approved' })).toEqual([{ id: 2 }]);
    expect(await casesOf({})).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
    expect(keptWrites).toBe(3);
  });

  it('refuses a statement that holds a value instead of its placeholder', async () => {
    const baked = (lawyerId: number) =>
      runShaped(db, 'baked', { lawyerId }, () => db.select({ id: cases.id }).from(cases).where(eq(cases.lawyerId, lawyerId)));
    expect(await baked(1)).toEqual([{ id: 1 }, { id: 2 }]);
    await expect(baked(2)).rejects.toThrow('a kept statement differs from the one written for its values');
  });

  it('past the most shapes kept, keeps the newest: the oldest is written again when asked for', async () => {
    const before = keptWrites;
    expect(await casesOf({ lawyerId: 1 })).toEqual([{ id: 1 }, { id: 2 }]);
    expect(keptWrites).toBe(before);
    for (let shape = 0; shape < MOST_SHAPES; shape += 1)
      await runShaped(db, `filler ${shape}`, {}, () => db.select({ id: cases.id }).from(cases).limit(1));
    let lateWrites = 0;
    const late = (status: string) =>
      runShaped(db, 'late', { status }, (v) => {
        if (is(v.status, Placeholder)) lateWrites += 1;
        return db.select({ id: cases.id }).from(cases).where(eq(cases.status, v.status)).orderBy(asc(cases.id));
      });
    expect(await late('approved')).toEqual([{ id: 2 }]);
    expect(await late('draft')).toEqual([{ id: 1 }, { id: 3 }, { id: 4 }]);
    expect(lateWrites).toBe(1);
    // The lawyer's shape was among the oldest: it is written again, and answers with its values.
    expect(await casesOf({ lawyerId: 2 })).toEqual([{ id: 3 }, { id: 4 }]);
    expect(keptWrites).toBe(before + 1);
  });

  it('keeps a shape that is used while new ones come, however many come', async () => {
    const before = keptWrites;
    expect(await casesOf({ status: 'approved' })).toEqual([{ id: 2 }]);
    const written = keptWrites;
    expect(written).toBeLessThanOrEqual(before + 1);
    for (let shape = 0; shape < 2 * MOST_SHAPES; shape += 1) {
      await runShaped(db, `passing ${shape}`, {}, () => db.select({ id: cases.id }).from(cases).limit(1));
      // Used every tenth new shape: never the least recently used one.
      if (shape % 10 === 0) expect(await casesOf({ status: 'approved' })).toEqual([{ id: 2 }]);
    }
    expect(keptWrites).toBe(written);
  });
});
