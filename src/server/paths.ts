import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's folder (where package.json is), found from this module's own place: the same
 * answer whether the server runs from src/server (tsx, vitest) or compiled into one file under
 * dist-server/ (`npm run serve`), so the contract and the migrations are read from one place in
 * both (docs/decisions.md: 313).
 */
export function projectRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

const root = projectRoot();

/** The contract the server routes, validates and serializes by. */
export const CONTRACT_PATH = path.join(root, 'openapi.yaml');

/** Drizzle's SQL migrations, applied on every start. */
export const MIGRATIONS_FOLDER = path.join(root, 'src', 'server', 'db', 'migrations');

/** The fonts and the colour profile every generated PDF embeds, with their licences (its README). */
export const PDF_ASSETS_FOLDER = path.join(root, 'src', 'server', 'pdf', 'assets');
