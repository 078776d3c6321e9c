import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite, types } from '@electric-sql/pglite';
import { literalOf, preparingQuery } from './pglite-prepared';

describe('values written as literals for EXECUTE', () => {
  it('quotes a value’s text, doubling its quotes; none is NULL', () => {
    expect(literalOf("O'Brien")).toBe("'O''Brien'");
    expect(literalOf("'); drop table users; --")).toBe("'''); drop table users; --'");
    expect(literalOf('back\\slash')).toBe("'back\\slash'");
    expect(literalOf('{1,2}')).toBe("'{1,2}'");
    expect(literalOf(null)).toBe('NULL');
  });

  it('leaves to a parameter a text holding a NUL character', () => {
    expect(literalOf('a\u0000b')).toBeUndefined();
  });
});

describe('prepared reads on the embedded database', () => {
  let db: PGlite;
  let query: PGlite['query'];
  const preparedNames = async () =>
    (await db.query<{ name: string }>('select name from pg_prepared_statements order by name')).rows.map((row) => row.name);

  beforeAll(async () => {
    db = await PGlite.create('memory://');
    await db.exec(`create table people (id int primary key, name text not null, active boolean not null,
        seen timestamptz not null default '2026-11-01T10:00:00Z', tags jsonb not null default '[]');
      insert into people (id, name, active) values (1, 'Ann', true), (2, 'O''Brien', true), (3, 'Cy', false);
      update people set tags = '["vip"]' where id = 2;`);
    query = preparingQuery(db.query.bind(db), db.serializers);
    // Starting PostgreSQL in WebAssembly takes a few seconds on a busy machine.
  }, 60_000);
  afterAll(() => db.close());

  it('answers as the unnamed statement does, and is prepared from its second call on', async () => {
    const text = 'select id, name from people where active = $1 and id >= $2 order by id';
    const first = await query(text, [true, 1]);
    expect(await preparedNames()).toEqual([]);
    const second = await query(text, [true, 2], { rowMode: 'array' });
    expect(await preparedNames()).toHaveLength(1);
    const third = await query(text, [true, 1]);
    expect(first.rows).toEqual([
      { id: 1, name: 'Ann' },
      { id: 2, name: "O'Brien" },
    ]);
    expect(second.rows).toEqual([[2, "O'Brien"]]);
    expect(third.rows).toEqual(first.rows);
    expect(third.fields).toEqual(first.fields);
  });

  it('reads a quote or an attempt at SQL in a value as text', async () => {
    const text = 'select id from people where name = $1';
    await query(text, ['Ann']);
    expect((await query(text, ["O'Brien"])).rows).toEqual([{ id: 2 }]);
    expect((await query(text, ["x'); delete from people; --"])).rows).toEqual([]);
    expect((await db.query('select count(*)::int as n from people')).rows).toEqual([{ n: 3 }]);
  });

  it('makes each value text as PGlite does for its parameter’s type: arrays, dates, booleans, JSON', async () => {
    const byIds = 'select name from people where id = any($1::int[]) and seen < $2 and active = $3 order by id';
    const values = [[1, 2], new Date('2026-11-02T00:00:00Z'), true];
    const unnamed = await query(byIds, values);
    expect((await query(byIds, values)).rows).toEqual(unnamed.rows);
    expect(unnamed.rows).toEqual([{ name: 'Ann' }, { name: "O'Brien" }]);
    const tagged = 'select id from people where tags @> $1';
    await query(tagged, ['["vip"]']);
    expect((await query(tagged, [['vip']])).rows).toEqual([{ id: 2 }]);
    expect(await preparedNames()).toHaveLength(4);
  });

  it('makes a value text by the call’s own serializer for its type first, as PGlite does', async () => {
    const text = 'select id from people where name = $1';
    const own = { serializers: { [types.TEXT]: () => 'Cy' } };
    const unnamed = await query(text, ['nobody'], own);
    expect((await query(text, ['nobody'], own)).rows).toEqual(unnamed.rows);
    expect(unnamed.rows).toEqual([{ id: 3 }]);
  });

  it('sends a write as it is, and answers an untyped parameter as text', async () => {
    const untyped = 'select $1 as echo';
    await query(untyped, ['a']);
    expect((await query(untyped, ['b'])).rows).toEqual([{ echo: 'b' }]);
    const write = 'update people set active = $1 where id = $2';
    await query(write, [true, 3]);
    expect((await query(write, [false, 3])).affectedRows).toBe(1);
    // The untyped select is prepared (its parameter read as text), the update is not.
    expect(await preparedNames()).toHaveLength(5);
  });

  it('goes back to the unnamed statement once the table changed the prepared answer’s shape', async () => {
    const text = 'select * from people where id = $1';
    await query(text, [1]);
    await query(text, [1]);
    await db.exec('alter table people add column note text');
    expect((await query(text, [1])).rows).toEqual([
      { id: 1, name: 'Ann', active: true, seen: new Date('2026-11-01T10:00:00Z'), tags: [], note: null },
    ]);
    expect((await query(text, [2])).rows[0]).toMatchObject({ id: 2, note: null });
  });
});
