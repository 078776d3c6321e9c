import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import type { SQL } from 'drizzle-orm';
import { openDatabase, queryRows, type Database } from '../../src/server/db/connection';
import { DEMO_PASSWORD, seedDemoData } from '../../src/server/seed/seed';
import { fileStorage, type FileStorage } from '../../src/server/files/storage';

export { DEMO_PASSWORD };

export interface TestServer {
  app: FastifyInstance;
  db: Database;
  config: Config;
  /** The file storage the app uses: PostgreSQL on the PostgreSQL lane, the local one on the embedded lane. */
  storage(): FileStorage;
  close(): Promise<void>;
  /** Signs in and returns the bearer token. */
  signIn(login: string, password?: string): Promise<string>;
  call(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  /**
   * A second server process on the same database: on PostgreSQL its own connections (and its own
   * start: migrations, and the seed when the test asked for it); on the embedded database the same
   * one. Closed with this server.
   */
  sibling(): Promise<Pick<TestServer, 'call'>>;
  /** Rows of a raw SQL query, for looking at what the API stored. */
  rows<T>(query: SQL): Promise<T[]>;
  /** What a shutdown does at its deadline: the database refuses the app's work from now on (docs/decisions.md 566). */
  refuseWork(): void;
}

/** The migrated embedded database the lane's global setup dumped (tests/api/pglite-global-setup.ts). */
async function migratedDump(): Promise<Blob> {
  return new Blob([await fs.promises.readFile(inject('pgliteMigratedDump'))]);
}

/**
 * The real app on a real database: in-memory PGlite by default, or (API_TEST_DB=postgres) a
 * fresh database on the PostgreSQL server that the lane's global setup started. The database is
 * empty unless the test asks for the demo seed (`{ seed: true }`): tests build their own rows with
 * ./factories, so none leans on the seed by accident (docs/decisions.md: 215).
 */
export async function startTestServer(overrides: Partial<Config> = {}, options: { seed?: boolean } = {}): Promise<TestServer> {
  let dropDatabase = async () => {};
  let databaseUrl: string | undefined;
  if (process.env.API_TEST_DB === 'postgres') {
    const serverUrl = inject('postgresUrl');
    const name = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
    await admin.end();
    databaseUrl = serverUrl.replace(/\/postgres$/, `/${name}`);
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  // With DATABASE_URL the files are in PostgreSQL too (FILES_STORAGE's default; decision 350).
  const config = {
    ...loadConfig({ NODE_ENV: 'test', STATIC_DIR: '/nonexistent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }),
    ...overrides,
  };
  const handle = await openDatabase({
    databaseUrl,
    dataDir: 'memory://',
    startFrom: databaseUrl ? undefined : await migratedDump(),
  });
  if (options.seed === true) await seedDemoData(handle.db, config);
  const app = await buildApp({ config, db: handle.db });
  await app.ready();

  const caller =
    (target: FastifyInstance): TestServer['call'] =>
    ({ token, headers, ...rest }) =>
      target.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  const call = caller(app);
  const siblings: (() => Promise<void>)[] = [];

  return {
    app,
    db: handle.db,
    config,
    storage: () => fileStorage(config, handle.db),
    call,
    rows: (query) => queryRows(handle.db, query),
    refuseWork: () => handle.refuseWork(),
    async sibling() {
      const own = databaseUrl ? await openDatabase({ databaseUrl, dataDir: 'memory://' }) : undefined;
      if (own && options.seed === true) await seedDemoData(own.db, config);
      const other = await buildApp({ config, db: own?.db ?? handle.db });
      await other.ready();
      siblings.push(async () => {
        await other.close();
        await own?.close();
      });
      return { call: caller(other) };
    },
    async signIn(login, password = DEMO_PASSWORD) {
      const res = await call({ method: 'POST', url: '/api/auth', payload: { login, password } });
      if (res.statusCode !== 200) throw new Error(`sign-in of ${login} failed: ${res.statusCode} ${res.body}`);
      return res.json().token as string;
    },
    async close() {
      for (const close of siblings) await close();
      await app.close();
      await handle.close();
      await dropDatabase();
    },
  };
}
