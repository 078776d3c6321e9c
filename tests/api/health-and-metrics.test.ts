import { spawnSync } from 'node:child_process';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { MemoryFileStorage, replaceFileStorage } from '../../src/server/files/storage';
import { createLifecycle } from '../../src/server/ops/lifecycle';
import { buildSigningCase, prepareAndNotify, signAsClient } from './esign-fixtures';
import { buildUser, signInAs } from './factories';
import { startTestServer, type TestServer } from './harness';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';

/** A file store that refuses every write with a path and an errno in its message (what must not leak). */
class ReadOnlyStore extends MemoryFileStorage {
  override async put(_key: string, source: Readable | Uint8Array): Promise<void> {
    if ('resume' in source) for await (const _chunk of source);
    throw Object.assign(new Error('EROFS: read-only file system, open /srv/portal/files/ab/probe.pdf'), { code: 'EROFS' });
  }
}

/** Whatever an answer must never carry: a version, a path, an error's text. */
function expectNothingLeaked(body: string): void {
  expect(body).not.toMatch(/\d+\.\d+\.\d+|\/srv|\/tmp|\/work|node_modules|EROFS|Error|version|stack|pglite|postgres/i);
}

/** `promtool check metrics` (Prometheus's own linter) on an exposition: its exit status and what it said. */
function promtool(text: string): { status: number | null; output: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}${run.error ? String(run.error) : ''}` };
}

/** The value of one sample line, e.g. sample(text, 'portal_mail_outbox_unsent'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('health endpoints', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(async () => server?.close());

  it('/healthz and /readyz answer 200 without a session, with no cache and nothing but their status', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const res = await server.call({ method: 'GET', url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectNothingLeaked(res.body);
      const head = await server.call({ method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
    }
  });

  it('are never rate limited: a probe every few milliseconds is answered every time', async () => {
    const answers = [];
    for (let i = 0; i < 60; i++)
      answers.push((await server.call({ method: 'GET', url: i % 2 ? '/readyz' : '/healthz' })).statusCode);
    expect(answers).toEqual(Array(60).fill(200));
  });

  it('a probe is not written to the request log, which still has every other request (production logs at info)', async () => {
    const lines: string[] = [];
    const app = await buildApp({
      config: { ...server.config, production: true },
      db: server.db,
      logger: { write: (line) => void lines.push(line) },
    });
    try {
      for (const url of ['/healthz', '/readyz', '/healthz'])
        expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/config' })).statusCode).toBe(200);
      const urls = lines.map((line) => JSON.parse(line) as { req?: { url?: string } }).flatMap((entry) => entry.req?.url ?? []);
      expect(urls).toContain('/api/config');
      expect(urls.filter((url) => /healthz|readyz/.test(url))).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('/readyz answers 503 when the file store takes no write, saying no more than unavailable, and 200 once it does', async () => {
    const store = server.storage();
    replaceFileStorage(server.config, server.db, new ReadOnlyStore());
    try {
      // A check is reused for one second: the next one sees the broken store.
      await expect
        .poll(async () => (await server.call({ method: 'GET', url: '/readyz' })).statusCode, { timeout: 5_000, interval: 250 })
        .toBe(503);
      const res = await server.call({ method: 'GET', url: '/readyz' });
      expect(res.json()).toEqual({ status: 'unavailable' });
      expectNothingLeaked(res.body);
      // The process itself still answers: an orchestrator must not restart it for its store.
      expect((await server.call({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      replaceFileStorage(server.config, server.db, store);
    }
    await expect
      .poll(async () => (await server.call({ method: 'GET', url: '/readyz' })).statusCode, { timeout: 5_000, interval: 250 })
      .toBe(200);
  });

  it('/readyz answers 503 when the database lacks a migration this server was built with', async () => {
    const [newest] = await server.rows<{ id: number; created_at: string }>(
      sql`select id, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    await server.rows(sql`update drizzle.__drizzle_migrations set created_at = created_at - 1 where id = ${newest!.id}`);
    try {
      await expect
        .poll(async () => (await server.call({ method: 'GET', url: '/readyz' })).statusCode, { timeout: 5_000, interval: 250 })
        .toBe(503);
      expect((await server.call({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'unavailable' });
    } finally {
      await server.rows(sql`update drizzle.__drizzle_migrations set created_at = ${newest!.created_at} where id = ${newest!.id}`);
    }
    await expect
      .poll(async () => (await server.call({ method: 'GET', url: '/readyz' })).statusCode, { timeout: 5_000, interval: 250 })
      .toBe(200);
  });

  it('/readyz answers 503 from the moment a shutdown begins, while /healthz still answers 200', async () => {
    const lifecycle = createLifecycle();
    const app = await buildApp({ config: server.config, db: server.db, lifecycle });
    try {
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      lifecycle.beginShutdown();
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'shuttingDown' });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('metrics, with METRICS_TOKEN', () => {
  let server: TestServer;
  const scrape = (authorization?: string) =>
    server.call({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  beforeAll(async () => {
    server = await startTestServer({ metricsToken: METRICS_TOKEN });
  }, 120_000);
  afterAll(async () => server?.close());

  it('is served only with METRICS_TOKEN, and only to its bearer', async () => {
    const withoutToken = await buildApp({ config: { ...server.config, metricsToken: undefined }, db: server.db });
    try {
      const res = await withoutToken.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('# HELP');
    } finally {
      await withoutToken.close();
    }
    expect((await scrape(`Bearer ${METRICS_TOKEN}`)).statusCode).toBe(200);
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef0123456789', `Basic ${METRICS_TOKEN}`]) {
      const res = await scrape(authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).not.toContain('# HELP');
    }
  });

  it('answers Prometheus text that promtool accepts, with requests by route pattern, never the address', async () => {
    const staff = await buildUser(server.db, { role: 'admin' });
    const token = await signInAs(server, staff);
    // An application that does not exist: the route is matched, the address carries its id.
    expect((await server.call({ method: 'GET', url: '/api/applications/987654', token })).statusCode).toBe(404);
    expect((await server.call({ method: 'GET', url: '/no/such/address/4242' })).statusCode).toBe(404);
    // A method the portal never answers is one label, whatever its name: callers cannot add series.
    await server.call({ method: 'PROPFIND' as 'GET', url: '/no/such/address' });

    const res = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.body;

    const check = promtool(text);
    expect(check.output).not.toMatch(/not found|ENOENT/);
    expect(check.status, check.output).toBe(0);

    expect(text).toContain(
      'portal_http_request_duration_seconds_count{method="GET",route="/api/applications/:id",status_code="404"} 1',
    );
    expect(text).toContain('portal_http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"} 1');
    expect(text).toMatch(/portal_http_request_duration_seconds_count\{method="other",route="unmatched",status_code="\d+"\} 1/);
    expect(text).not.toContain('PROPFIND');
    // No series is labelled with an address's id. Read in the labels only: a sample's value may hold
    // any digits (the process's virtual memory once read 14242521088 bytes).
    const labels = (text.match(/\{[^}]*\}/g) ?? []).join('\n');
    expect(labels).toContain('route=');
    expect(labels).not.toContain('987654');
    expect(labels).not.toContain('4242');
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(sample(text, 'portal_pdf_workers_running')).toBe(0);
    expect(sample(text, 'portal_pdf_jobs_waiting')).toBe(0);
    expect(sample(text, 'portal_idempotency_claims_held')).toBe(0);
    if (process.env.API_TEST_DB === 'postgres') {
      expect(sample(text, 'portal_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'portal_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'portal_db_pool_waiting_requests')).toBe(0);
      expect(text).not.toContain('portal_db_embedded_pending');
    } else {
      // The scrape's own outbox count is the one statement running while the gauge is read.
      expect(sample(text, 'portal_db_embedded_pending')).toBeGreaterThanOrEqual(0);
      expect(text).not.toContain('portal_db_pool_connections');
    }
  });

  it('counts the unsent mail, and those whose sending failed', async () => {
    const before = await scrape(`Bearer ${METRICS_TOKEN}`);
    const unsent = sample(before.body, 'portal_mail_outbox_unsent')!;
    const retrying = sample(before.body, 'portal_mail_outbox_retrying')!;
    await server.rows(sql`insert into emails (to_address, subject, text_body, html_body, user_type, attempts, sent_at) values
      ('a@example.test', 's', 't', 'h', 'customer', 0, null),
      ('b@example.test', 's', 't', 'h', 'customer', 2, null),
      ('c@example.test', 's', 't', 'h', 'customer', 1, now())`);
    const after = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(sample(after.body, 'portal_mail_outbox_unsent')).toBe(unsent + 2);
    expect(sample(after.body, 'portal_mail_outbox_retrying')).toBe(retrying + 1);
  });

  it('times the signing of documents and the PDF worker jobs it ran', async () => {
    const before = await scrape(`Bearer ${METRICS_TOKEN}`);
    const signedBefore = sample(before.body, 'portal_signing_duration_seconds_count{outcome="ok"}') ?? 0;
    const sealsBefore = sample(before.body, 'portal_pdf_job_duration_seconds_count{kind="seal",outcome="ok"}') ?? 0;

    const admin = await signInAs(server, await buildUser(server.db, { role: 'admin' }));
    const signing = await buildSigningCase(server);
    await prepareAndNotify(server, signing.applicationId, admin);
    expect((await signAsClient(server, signing)).statusCode).toBe(200);

    const after = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(sample(after.body, 'portal_signing_duration_seconds_count{outcome="ok"}')).toBe(signedBefore + 1);
    expect(sample(after.body, 'portal_pdf_job_duration_seconds_count{kind="seal",outcome="ok"}')).toBe(sealsBefore + 1);
    expect(sample(after.body, 'portal_pdf_job_duration_seconds_count{kind="contract",outcome="ok"}')).toBeGreaterThanOrEqual(1);
    const check = promtool(after.body);
    expect(check.status, check.output).toBe(0);
  }, 120_000);
});
