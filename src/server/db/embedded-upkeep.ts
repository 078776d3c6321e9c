import { sql, type SQL } from 'drizzle-orm';
import { repeatInBackground } from '../background/repeat';
import { queryRows, type Database } from './connection';

/**
 * PostgreSQL's autovacuum for the embedded database (docs/decisions.md 745). PGlite runs
 * PostgreSQL as a single process, without the autovacuum workers, and nothing else vacuumed or
 * analysed it: the planner had no statistics of the portal's tables at all, however they grew, and
 * guessed each list's plan blind (at 100,000 applications a loans page took 27–32 ms instead of
 * 1.4, a lawyer's loans overview 504 ms instead of 3), and the rows that updates and deletes leave behind
 * were cleared only as far as a page's own pruning reaches. This job reads what PostgreSQL counts
 * per table and vacuums or analyses the tables past autovacuum's own default thresholds, one
 * statement at a time: each goes through the embedded database's queue, between requests.
 * A server on PostgreSQL leaves this to the server's autovacuum.
 */

/**
 * What PostgreSQL counted for a table since its last vacuum and analyse (pg_stat_user_tables), and
 * what the catalogue holds from the last of them (`pg_class`: its rows, -1 for a table never
 * counted, and its pages), with the table's pages now. PGlite starts the counters again from
 * nothing at every start, so a server restarted often would never see a table change enough: the
 * catalogue's figures outlive a restart, and a table grown well past them is analysed too.
 */
export interface TableActivity {
  table: string;
  /** `pg_class.reltuples`: -1 when never vacuumed nor analysed. */
  rows: number;
  /** `pg_class.relpages`, as counted with `rows`. */
  pages: number;
  pagesNow: number;
  dead: number;
  insertedSinceVacuum: number;
  modifiedSinceAnalyze: number;
}

/** autovacuum's defaults: a vacuum past 50 dead rows and a fifth of the table, … */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;
/** … or past 1,000 rows inserted and a fifth (the visibility map then serves index-only scans), … */
const INSERT_VACUUM_THRESHOLD = 1_000;
const INSERT_VACUUM_SCALE = 0.2;
/** … and an analyse past 50 rows changed and a tenth. */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;
/** A table grown by more than a tenth of its counted pages, and by more than this many (64 KB), is analysed. */
const GROWN_PAGES = 8;

/** As often as autovacuum looks (autovacuum_naptime). */
export const UPKEEP_EVERY_MS = 60_000;

/**
 * What a table needs now: autovacuum's rules, and an analyse for a table never counted (the
 * planner then has no statistics of it at all) or grown past what the catalogue counted.
 */
export function upkeepOf(table: TableActivity): { vacuum: boolean; analyze: boolean } {
  const live = Math.max(table.rows, 0);
  const vacuum =
    table.dead > VACUUM_THRESHOLD + VACUUM_SCALE * live ||
    table.insertedSinceVacuum > INSERT_VACUUM_THRESHOLD + INSERT_VACUUM_SCALE * live;
  const grown = table.pagesNow > table.pages + Math.max(GROWN_PAGES, ANALYZE_SCALE * table.pages);
  const analyze = table.rows < 0 || grown || table.modifiedSinceAnalyze > ANALYZE_THRESHOLD + ANALYZE_SCALE * live;
  return { vacuum, analyze };
}

/**
 * A vacuum and an analyse are two statements, so the database is held for one of them at a time
 * (both at once took 0.5–0.8 s on the 180 MB of steps of 100,000 applications).
 */
function upkeepStatements(table: string, { vacuum, analyze }: { vacuum: boolean; analyze: boolean }): SQL[] {
  const name = sql.identifier(table);
  return [vacuum && sql`vacuum ${name}`, analyze && sql`analyze ${name}`].filter((statement) => statement !== false);
}

/** The portal's tables as PostgreSQL counted them, the most dead rows first. */
async function tableActivity(db: Database): Promise<TableActivity[]> {
  const rows = await queryRows<Record<keyof TableActivity, string | number>>(
    db,
    sql`select s.relname as "table", c.reltuples::float8 as "rows", c.relpages as "pages",
          pg_relation_size(s.relid) / current_setting('block_size')::int as "pagesNow", s.n_dead_tup as "dead",
          s.n_ins_since_vacuum as "insertedSinceVacuum", s.n_mod_since_analyze as "modifiedSinceAnalyze"
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where s.schemaname = 'public' order by s.n_dead_tup desc, s.relname`,
  );
  return rows.map((row) => ({
    table: String(row.table),
    rows: Number(row.rows),
    pages: Number(row.pages),
    pagesNow: Number(row.pagesNow),
    dead: Number(row.dead),
    insertedSinceVacuum: Number(row.insertedSinceVacuum),
    modifiedSinceAnalyze: Number(row.modifiedSinceAnalyze),
  }));
}

/** One round: each table past a threshold vacuumed or analysed, one statement each. Returns what was done. */
export async function keepTablesUp(db: Database, stopped: () => boolean = () => false): Promise<string[]> {
  const done: string[] = [];
  for (const table of await tableActivity(db)) {
    if (stopped()) break;
    const work = upkeepOf(table);
    const statements = upkeepStatements(table.table, work);
    if (statements.length === 0) continue;
    for (const statement of statements) await db.execute(statement);
    done.push(`${[work.vacuum && 'vacuum', work.analyze && 'analyze'].filter(Boolean).join(' and ')} ${table.table}`);
  }
  return done;
}

export function startEmbeddedUpkeep(
  db: Database,
  log: { info: (msg: string) => void; error: (msg: string, err: unknown) => void },
  everyMs = UPKEEP_EVERY_MS,
): () => void {
  return repeatInBackground({
    name: 'embedded database upkeep',
    everyMs,
    log: log.error,
    run: async (stopped) => {
      const started = performance.now();
      const done = await keepTablesUp(db, stopped);
      if (done.length > 0)
        log.info(`embedded database upkeep: ${done.join(', ')} in ${Math.round(performance.now() - started)} ms`);
    },
  });
}
