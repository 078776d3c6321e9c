import { PGlite } from '@electric-sql/pglite';
import { plannerOptions } from './planner-settings';

/**
 * PostgreSQL's shared buffers inside the embedded database. PGlite keeps PostgreSQL's default,
 * 128 MB, and its shared memory is written through when the database opens, so all of it was
 * resident from the start: 151 MB of the WebAssembly memory of a freshly opened database, against
 * 29 MB with 16 MB of buffers (which never shrinks: WebAssembly memory is not given back). The
 * database's files are read through the operating system's cache, which holds what the buffers
 * do not (docs/decisions.md 670).
 */
export const EMBEDDED_SHARED_BUFFERS = '16MB';

/**
 * PGlite's own start parameters, with the settings above and the planner's (db/planner-settings.ts).
 * Given on the command line, they win over the data folder's postgresql.conf, so an existing
 * DATA_DIR gets them on its next start.
 */
export const pgliteStartParams: string[] = [
  ...PGlite.defaultStartParams,
  '-c',
  `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`,
  ...plannerOptions(),
];
