import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite, types } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { sql } from 'drizzle-orm';
import { keepTypesAsText, TYPES_KEPT_AS_TEXT, withoutRepeatedParsers } from './pglite-parsers';

const asText = (value: string) => value;

describe('a call’s parsers dropped when the client already keeps their types as text', () => {
  it('drops parsers that return their text for the kept types', () => {
    const options = { rowMode: 'array' as const, parsers: { [types.TIMESTAMPTZ]: asText, 1115: asText } };
    expect(withoutRepeatedParsers(options)).toEqual({ rowMode: 'array', parsers: undefined });
  });

  it('keeps them all when one would change its text, or is for another type', () => {
    const changing = { parsers: { [types.TIMESTAMPTZ]: asText, [types.DATE]: (value: string) => new Date(value) } };
    expect(withoutRepeatedParsers(changing)).toBe(changing);
    const other = { parsers: { [types.TIMESTAMPTZ]: asText, [types.INT4]: asText } };
    expect(withoutRepeatedParsers(other)).toBe(other);
  });

  it('leaves options without parsers as they are', () => {
    expect(withoutRepeatedParsers(undefined)).toBeUndefined();
    const options = { rowMode: 'object' as const };
    expect(withoutRepeatedParsers(options)).toBe(options);
  });
});

describe('drizzle on an embedded database that keeps those types as text', () => {
  let plain: PGlite;
  let kept: PGlite;
  const seen: unknown[] = [];
  const values = sql`select '2026-11-27 10:00:00'::timestamp as at, '2026-11-27 10:00:00+00'::timestamptz as at_zone,
    '2026-11-27'::date as day, '1 day'::interval as span, array[1.5, 2]::numeric[] as amounts,
    array['2026-11-27 10:00:00'::timestamp] as ats, array['2026-11-27 10:00:00+00'::timestamptz] as at_zones,
    array['2026-11-27'::date] as days, array['1 day'::interval] as spans, 7::int as n`;

  beforeAll(async () => {
    [plain, kept] = await Promise.all([PGlite.create('memory://'), PGlite.create('memory://')]);
    keepTypesAsText(kept);
    const query = kept.query.bind(kept);
    kept.query = ((text: string, params?: unknown[], options?: Parameters<typeof query>[2]) => {
      seen.push(options);
      return query(text, params, withoutRepeatedParsers(options));
    }) as typeof kept.query;
    // Starting PostgreSQL in WebAssembly takes a few seconds on a busy machine.
  }, 60_000);
  afterAll(() => Promise.all([plain.close(), kept.close()]));

  it('gives drizzle parsers only for the kept types, each keeping its text, and they are dropped', async () => {
    await drizzle({ client: kept }).execute(values);
    const parsers = (seen.at(-1) as { parsers: Record<string, (text: string) => unknown> }).parsers;
    expect(Object.keys(parsers).map(Number).sort()).toEqual([...TYPES_KEPT_AS_TEXT].sort());
    for (const [type, parse] of Object.entries(parsers)) expect(parse(`text of ${type}`)).toBe(`text of ${type}`);
    expect(withoutRepeatedParsers(seen.at(-1) as object)).toMatchObject({ parsers: undefined });
  });

  it('answers drizzle as the client given drizzle’s own parsers does: every kept type as its text', async () => {
    const [before, after] = await Promise.all([
      drizzle({ client: plain }).execute(values),
      drizzle({ client: kept }).execute(values),
    ]);
    expect(after.rows).toEqual(before.rows);
    expect(after.rows[0]).toMatchObject({ at: '2026-11-27 10:00:00', day: '2026-11-27', ats: '{"2026-11-27 10:00:00"}', n: 7 });
  });
});
