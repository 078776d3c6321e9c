import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema';
import { excludedTables, extractTables } from './extract-tables';
import { csvCell } from './extract-zip';

const schemaTables: PgTable[] = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable =>
  is(value, PgTable),
);

describe('the tables of the database extract', () => {
  it('lists or excludes every table of the schema, and names none that is not there', () => {
    const listed = extractTables.map((spec) => getTableName(spec.table));
    const excluded = Object.keys(excludedTables);
    const known: string[] = schemaTables.map((table) => getTableName(table));
    const undecided = known.filter((name) => !listed.includes(name) && !excluded.includes(name));
    expect(undecided, 'add the table to extractTables or excludedTables (services/dump/extract-tables.ts)').toEqual([]);
    expect([...listed, ...excluded].filter((name) => !known.includes(name))).toEqual([]);
    expect(listed.filter((name) => excluded.includes(name))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('takes each column from its own table, once, and reads by a key it writes', () => {
    for (const spec of extractTables) {
      const own = Object.values(getTableColumns(spec.table));
      for (const column of spec.columns) expect(own, `${getTableName(spec.table)}.${column.name}`).toContain(column);
      expect(new Set(spec.columns).size).toBe(spec.columns.length);
      expect(spec.key.length).toBeGreaterThan(0);
      for (const column of spec.key) expect(spec.columns).toContain(column);
    }
  });

  it('leaves out every credential, stored answer and email body', () => {
    const written = extractTables.flatMap((spec) => spec.columns.map((column) => `${getTableName(spec.table)}.${column.name}`));
    for (const secret of [
      'users.password_hash',
      'sessions.token_hash',
      'user_tokens.token_hash',
      'download_tokens.token_hash',
      'emails.text_body',
      'emails.html_body',
      'files.key',
      'applications.envelope_url',
    ])
      expect(written).not.toContain(secret);
    expect(Object.keys(excludedTables)).toContain('idempotency_keys');
    // File contents kept in PostgreSQL (decision 350) never leave through the extract.
    expect(Object.keys(excludedTables)).toEqual(expect.arrayContaining(['stored_files', 'stored_file_chunks']));
    // Anything named like a secret must be a decision, not an accident.
    expect(written.filter((name) => /hash|secret|password|token_hash|body/.test(name))).toEqual([]);
  });
});

describe('csvCell', () => {
  it('writes times in ISO form, booleans as words, structured values as JSON and null as nothing', () => {
    expect(csvCell(new Date('2026-11-24T10:00:00.000Z'))).toBe('2026-11-24T10:00:00.000Z');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(false)).toBe('false');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(123_456)).toBe('123456');
    expect(csvCell({ a: 1, b: ['x'] })).toBe('{"a":1,"b":["x"]}');
    expect(csvCell('Smith, "Jo"\nJr')).toBe('Smith, "Jo"\nJr');
  });

  it('keeps text that a spreadsheet would run as a formula from running', () => {
    for (const text of ['=HYPERLINK("http://x.test")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])
      expect(csvCell(text)).toBe(`'${text}`);
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('plain = text')).toBe('plain = text');
  });
});
