import { describe, expect, it } from 'vitest';
import { upkeepOf, type TableActivity } from './embedded-upkeep';

/** A table counted by the catalogue (1,000 rows on 10 pages, unchanged since) and quiet since. */
const table = (counts: Partial<TableActivity>): TableActivity => ({
  table: 't',
  rows: 1_000,
  pages: 10,
  pagesNow: 10,
  dead: 0,
  insertedSinceVacuum: 0,
  modifiedSinceAnalyze: 0,
  ...counts,
});

describe('upkeepOf: autovacuum’s default thresholds', () => {
  it('leaves a quiet table alone', () => {
    expect(upkeepOf(table({}))).toEqual({ vacuum: false, analyze: false });
    expect(upkeepOf(table({ rows: 100_000, pages: 1_000, pagesNow: 1_000, dead: 20, modifiedSinceAnalyze: 20 }))).toEqual({
      vacuum: false,
      analyze: false,
    });
  });

  it('vacuums past 50 dead rows and a fifth of the rows counted, not at them', () => {
    expect(upkeepOf(table({ dead: 250 })).vacuum).toBe(false);
    expect(upkeepOf(table({ dead: 251 })).vacuum).toBe(true);
    expect(upkeepOf(table({ rows: 0, pages: 0, pagesNow: 0, dead: 51 })).vacuum).toBe(true);
  });

  it('vacuums a table that only grows, past 1,000 rows inserted and a fifth', () => {
    expect(upkeepOf(table({ rows: 10_000, pages: 100, pagesNow: 100, insertedSinceVacuum: 3_000 })).vacuum).toBe(false);
    expect(upkeepOf(table({ rows: 10_000, pages: 100, pagesNow: 100, insertedSinceVacuum: 3_001 })).vacuum).toBe(true);
  });

  it('analyses past 50 rows changed and a tenth, with or without a vacuum', () => {
    expect(upkeepOf(table({ modifiedSinceAnalyze: 150 }))).toEqual({ vacuum: false, analyze: false });
    expect(upkeepOf(table({ modifiedSinceAnalyze: 151 }))).toEqual({ vacuum: false, analyze: true });
    expect(upkeepOf(table({ dead: 400, modifiedSinceAnalyze: 400 }))).toEqual({ vacuum: true, analyze: true });
  });

  it('analyses a table never counted, which the planner knows nothing of', () => {
    expect(upkeepOf(table({ rows: -1, pages: 0, pagesNow: 0 }))).toEqual({ vacuum: false, analyze: true });
  });

  it('analyses a table grown past a tenth of its counted pages and 8 pages, though the counters started again', () => {
    expect(upkeepOf(table({ pages: 1_000, pagesNow: 1_100 })).analyze).toBe(false);
    expect(upkeepOf(table({ pages: 1_000, pagesNow: 1_101 })).analyze).toBe(true);
    expect(upkeepOf(table({ rows: 0, pages: 0, pagesNow: 8 })).analyze).toBe(false);
    expect(upkeepOf(table({ rows: 0, pages: 0, pagesNow: 9 })).analyze).toBe(true);
  });
});
