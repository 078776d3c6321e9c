import { getTableName } from 'drizzle-orm';
import { stringify } from 'csv-stringify/sync';
import { Zip, ZipDeflate } from 'fflate';
import type { Database } from '../../db/connection';
import { excludedTables, extractTables, type ExtractTable } from './extract-tables';
import { readInBatches } from './read-in-batches';

/** Rows read per query. */
export const EXTRACT_BATCH_SIZE = 500;
/**
 * Rows turned into CSV and compressed at a time, with a turn of the event loop after each: fflate
 * compresses synchronously, and a slice of rows (even of long journey answers) takes milliseconds,
 * so other requests are answered between slices.
 */
const SLICE_ROWS = 100;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One table's line of the manifest. */
export interface ManifestEntry {
  table: string;
  file: string;
  rows: number;
  columns: string[];
}

export interface ExtractOptions {
  extractedAt: Date;
  extractedBy: number;
  batchSize?: number;
  /** The tables to write; every listed table by default. */
  tables?: readonly ExtractTable[];
}

const encoder = new TextEncoder();
/** Excel reads a CSV as UTF-8 only when it starts with a byte order mark (names with accents). */
const BOM = '\ufeff';

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (CSV injection): a name
 * typed as `=HYPERLINK(...)` would run on the staff's computer. Such text gets a leading apostrophe
 * (OWASP's advice), which spreadsheets show as text; numbers, dates and JSON never start so.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function textCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One value as CSV text: ISO times, true/false, JSON for structured values, empty for null. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return textCell(value);
  return textCell(JSON.stringify(value));
}

/** RFC 4180 lines; a cell with a line break of either kind is quoted too (csv-stringify quotes only its own delimiter). */
function csvLines(records: string[][]): string {
  return stringify(records, { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}

/**
 * The extract as ZIP bytes, produced as they are read: per table a CSV (a header of column names,
 * then the rows in key order), then `manifest.json` with the row count of every file. The caller
 * pulls: the next batch is read only when the bytes before it have been taken, so memory holds one
 * batch and its compressed output whatever the size of the database.
 */
export async function* extractZip(db: Database, options: ExtractOptions): AsyncGenerator<Uint8Array> {
  const batchSize = options.batchSize ?? EXTRACT_BATCH_SIZE;
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  // fflate compresses synchronously as data is pushed; what it made so far is handed on here.
  function* take(): Generator<Uint8Array> {
    if (failure) throw failure;
    while (ready.length > 0) yield ready.shift()!;
  }
  const mtime = options.extractedAt;
  const manifest: ManifestEntry[] = [];

  for (const spec of options.tables ?? extractTables) {
    const table = getTableName(spec.table);
    const columns = spec.columns.map((column) => column.name);
    const entry: ManifestEntry = { table, file: `${table}.csv`, rows: 0, columns };
    const file = new ZipDeflate(entry.file, { level: 6 });
    file.mtime = mtime;
    zip.add(file);
    file.push(encoder.encode(BOM + csvLines([columns])));
    yield* take();
    for await (const rows of readInBatches(db, spec, batchSize)) {
      for (let start = 0; start < rows.length; start += SLICE_ROWS) {
        const slice = rows.slice(start, start + SLICE_ROWS);
        file.push(encoder.encode(csvLines(slice.map((row) => columns.map((name) => csvCell(row[name]))))));
        entry.rows += slice.length;
        yield* take();
        await nextTurn();
      }
    }
    file.push(new Uint8Array(0), true);
    yield* take();
    manifest.push(entry);
  }

  const manifestFile = new ZipDeflate('manifest.json', { level: 6 });
  manifestFile.mtime = mtime;
  zip.add(manifestFile);
  const summary = {
    extractedAt: options.extractedAt.toISOString(),
    extractedBy: options.extractedBy,
    format: 'One CSV per table: UTF-8 with a byte order mark, comma-separated, CRLF lines, RFC 4180 quoting.',
    tables: manifest,
    excludedTables: Object.keys(excludedTables),
  };
  manifestFile.push(encoder.encode(JSON.stringify(summary, null, 2)), true);
  zip.end();
  yield* take();
}
