import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');
export const tsx = path.join(root, 'node_modules/.bin/tsx');

/** The environment of a process on one data folder: the server, `npm run backup`, `npm run restore`. */
export const envFor = (dataDir: string, port = 0, databaseUrl = '') => ({
  ...process.env,
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  PORT: String(port),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DATA_DIR: dataDir,
  // The test configuration keeps files in memory unless told: on disk, as in production.
  FILES_DIR: path.join(dataDir, 'files'),
  SEED_DEMO: '1',
  STATIC_DIR: '/nonexistent',
  DATABASE_URL: databaseUrl,
});

/**
 * `npm run backup` / `npm run restore` (the same scripts), with their exit code and what they said;
 * the process is pushed onto children for the test's clean-up.
 */
export function runScript(
  script: 'backup' | 'restore',
  dataDir: string,
  arg: string,
  children: ChildProcess[],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, [`scripts/${script}.ts`, arg], {
      cwd: root,
      env: envFor(dataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}
