import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/connection';

/**
 * Starts a throw-away PostgreSQL server for the API tests' PostgreSQL lane: its own data
 * directory, a free port on 127.0.0.1, stopped and removed afterwards. One database is migrated
 * here; each test file then creates a database of its own as a copy of it (tests/api/harness.ts),
 * which is a file copy on the server rather than every migration again.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const server = await startThrowawayPostgres({ prefix: 'portal-pg-' });
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`create database ${MIGRATED_TEMPLATE}`);
    await admin.end();
    const migrated = await openDatabase({
      databaseUrl: server.url.replace(/\/postgres$/, `/${MIGRATED_TEMPLATE}`),
      dataDir: 'memory://',
    });
    await migrated.close();
  } catch (error) {
    server.stop();
    throw error;
  }
  project.provide('postgresUrl', server.url);
  project.provide('postgresTemplate', MIGRATED_TEMPLATE);
  return server.stop;
}

const MIGRATED_TEMPLATE = 'migrated_template';

/**
 * A PostgreSQL server of its own (the API tests' lane, the API benchmark): a temporary data
 * directory, a free port on 127.0.0.1 only, no fsync; `stop` ends it and removes the directory.
 */
export async function startThrowawayPostgres(options: {
  prefix: string;
  settings?: string;
}): Promise<{ url: string; stop: () => void }> {
  const bin = findPostgresBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), options.prefix));
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  // initdb refuses to run as root; CI runs as root, so the server runs as the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const run = (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd);
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' })
      : spawnSync(full, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
  };
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off ${options.settings ?? ''}`.trim();
  run('pg_ctl', ['-D', dataDir, '-l', path.join(dir, 'server.log'), '-w', '-o', settings, 'start']);
  const stop = () => {
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}

export function findPostgresBin(): string {
  const candidates = [process.env.PG_BIN, ...listVersions('/usr/lib/postgresql')].filter(Boolean) as string[];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')));
  if (!found) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (or set PG_BIN to its bin directory)');
  return found;
}

function listVersions(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => path.join(root, v, 'bin'));
}

/** A port free on 127.0.0.1 at this moment. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresTemplate: string;
  }
}
