/**
 * Planner settings of every connection the server opens, on PostgreSQL and in the embedded
 * database alike (docs/decisions.md, 724).
 *
 * Memoize off: the lists keep their generic plans (db/paging.ts), which are made without knowing
 * how few rows a page is, so they put a Memoize node (a cache of the joined rows, sized for the
 * whole table) on each join of a page. Setting up those caches cost about 1 ms at every call of a
 * drawdowns page whose rows took 0.13 ms to read; the lists and lookups here join a few rows by
 * primary key, where such a cache saves nothing.
 */
export const PLANNER_SETTINGS: Readonly<Record<string, string>> = { enable_memoize: 'off' };

/** The settings as command-line options: `-c name=value` each. */
export const plannerOptions = (): string[] =>
  Object.entries(PLANNER_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
