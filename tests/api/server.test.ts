import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
let staticDir: string;

beforeAll(async () => {
  // A tiny stand-in for the built PWA, so the static and fallback rules can be checked.
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-static-'));
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>portal</title><div id="root"></div>');
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(staticDir, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  server = await startTestServer({ staticDir }, { seed: true });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

describe('security headers', () => {
  it('are set on pages and on API answers', async () => {
    for (const url of ['/sign-in', '/api/config', '/api/auth']) {
      const res = await server.call({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });
});

describe('serving the PWA', () => {
  it('answers client routes with index.html (SPA fallback)', async () => {
    for (const url of ['/', '/sign-in', '/applications/12/details', '/reset/validate/abc']) {
      const res = await server.call({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and re-checks the service worker every time', async () => {
    const asset = await server.call({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const sw = await server.call({ method: 'GET', url: '/sw.js' });
    expect(sw.headers['cache-control']).toBe('no-cache');
  });

  it('answers HEAD on a client route like GET', async () => {
    const res = await server.call({ method: 'HEAD', url: '/applications' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('never answers an unknown API path or a missing file with the page', async () => {
    for (const url of ['/api/nothing-here', '/api', '/api?x=1']) {
      const api = await server.call({ method: 'GET', url });
      expect(api.statusCode, url).toBe(404);
      expect(api.json()).toEqual({ error: 'notFound' });
    }
    expect((await server.call({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
  });
});

describe('the client address behind a proxy', () => {
  it('trusts only the configured hops, so a client cannot spoof X-Forwarded-For', async () => {
    const proxied = await startTestServer({ trustProxy: 1, staticDir });
    try {
      const attempt = (i: number) =>
        proxied.call({
          method: 'POST',
          url: '/api/auth',
          payload: { login: `nobody${i}@demo.test`, password: 'Wrong-pass-1' },
          // The client made up the first address; the proxy appended the real one.
          headers: { 'x-forwarded-for': `10.0.0.${i}, 192.0.2.7` },
        });
      for (let i = 0; i < 20; i++) expect((await attempt(i)).statusCode).toBe(401);
      expect((await attempt(20)).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  });
});

describe('the bearer scheme', () => {
  it('is matched case-insensitively', async () => {
    const token = await server.signIn('admin@demo.test');
    const res = await server.call({ method: 'GET', url: '/api/auth', headers: { authorization: `bearer ${token}` } });
    expect(res.statusCode).toBe(200);
  });
});

describe('configuration', () => {
  it('GET /config gives the brand settings', async () => {
    const res = await server.call({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ productName: expect.any(String), phone: expect.any(String), email: expect.any(String) });
  });

  it('reads settings from the environment with defaults', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      production: false,
      seedDemo: true,
      databaseUrl: undefined,
      smtpUrl: undefined,
    });
    expect(defaults.dataDir).toBe(path.resolve('data'));
    const prod = loadConfig({ NODE_ENV: 'production', PORT: '8080', DATABASE_URL: 'postgres://x/y', BRAND_PHONE: '0800 1' });
    expect(prod).toMatchObject({ port: 8080, production: true, seedDemo: false, databaseUrl: 'postgres://x/y' });
    expect(prod.brand.phone).toBe('0800 1');
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    // The mailbox only while mail is not really sent, and never in production.
    expect(loadConfig({ SMTP_URL: 'smtp://mail:25' }).devMailbox).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).devMailbox).toBe(false);
    // Proxies are trusted by hop count or address list, never wholesale.
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });
});

describe('the development mailbox', () => {
  it('shows every email with working links outside production', async () => {
    const json = await server.call({ method: 'GET', url: '/api/dev/mailbox' });
    expect(json.statusCode).toBe(200);
    const first = json.json().emails[0];
    expect(first.links[0]).toMatch(/^http:\/\/127\.0\.0\.1:3000\/sign-up-customer\/[0-9a-f-]{36}$/);
    const page = await server.call({ method: 'GET', url: '/dev/mailbox' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('href="/sign-up-customer/');
  });

  it('is off in production mode', async () => {
    const prod = await startTestServer(loadConfig({ NODE_ENV: 'production', STATIC_DIR: staticDir }));
    try {
      expect((await prod.call({ method: 'GET', url: '/api/dev/mailbox' })).statusCode).toBe(404);
      const page = await prod.call({ method: 'GET', url: '/dev/mailbox' });
      expect(page.body).not.toContain('Development mailbox');
    } finally {
      await prod.close();
    }
  });
});

describe('a value the database refuses', () => {
  it('answers 400, not 500, also when the ORM wraps the database error', async () => {
    const { sql } = await import('drizzle-orm');
    const { errorHandler } = await import('../../src/server/http/error-handler');
    const { sqlStateOf } = await import('../../src/server/errors/database-errors');
    let refused: unknown;
    try {
      await server.db.execute(sql`select ${'99999999999'}::int`);
    } catch (error) {
      refused = error;
    }
    expect(sqlStateOf(refused)).toBe('22003');
    const sent: { status?: number; body?: unknown } = {};
    const reply = {
      code: (s: number) => ((sent.status = s), reply),
      send: (b: unknown) => ((sent.body = b), reply),
      header: () => reply,
    };
    errorHandler(refused as never, { log: { error: () => {} } } as never, reply as never);
    expect(sent).toEqual({ status: 400, body: { error: 'badRequest' } });
  });
});

describe('a connection the database server cuts', () => {
  it.runIf(process.env.API_TEST_DB === 'postgres')('neither ends the process nor fails the next call', async () => {
    const { sql } = await import('drizzle-orm');
    const token = await server.signIn('admin@demo.test');
    // Several idle connections in the pool, then every other connection of this database cut,
    // as a restart or an administrator would.
    await Promise.all([1, 2, 3, 4].map(() => server.rows(sql`select pg_sleep(0.05)`)));
    await server.rows(sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const res = await server.call({ method: 'GET', url: '/api/auth', token });
    expect(res.statusCode).toBe(200);
  });
});

describe('several server processes on one database', () => {
  it('agree on sessions, sign-out and sign-in limits, and start on a migrated, seeded database', async () => {
    const other = await server.sibling();
    const signIn = await server.call({
      method: 'POST',
      url: '/api/auth',
      payload: { login: 'lawyer@demo.test', password: 'Demo-pass-1' },
    });
    const token = signIn.json().token as string;
    expect((await other.call({ method: 'GET', url: '/api/auth', token })).statusCode).toBe(200);
    expect((await other.call({ method: 'DELETE', url: '/api/auth', token })).statusCode).toBe(204);
    expect((await server.call({ method: 'GET', url: '/api/auth', token })).statusCode).toBe(401);

    const remoteAddress = '127.0.0.71';
    const fail = (target: typeof other, i: number) =>
      target.call({
        method: 'POST',
        url: '/api/auth',
        payload: { login: 'firm@demo.test', password: `Wrong-${i}-pass` },
        remoteAddress,
      });
    for (let i = 0; i < 5; i++) expect((await fail(i % 2 ? server : other, i)).statusCode).toBe(401);
    expect((await fail(server, 5)).statusCode).toBe(429);
    expect((await fail(other, 6)).statusCode).toBe(429);
  });
});
