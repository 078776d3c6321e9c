import { createHash, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import type { Config } from '../config';
import { databaseStats, queryRows, type Database } from '../db/connection';
import { AppError } from '../errors/app-error';
import { idempotencyClaimsHeld } from '../http/idempotency';
import { pdfJobsWaiting, pdfWorkersRunning } from '../pdf/worker-pool';
import { pdfJobDuration, signingDuration } from './instruments';

/** Past this the outbox is left unread for the scrape (its gauges say NaN): a scrape must not hang on a busy database. */
const OUTBOX_READ_TIMEOUT_MS = 2_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The bearer token of a scrape against METRICS_TOKEN, in constant time. */
function scrapeAllowed(request: FastifyRequest, token: string): boolean {
  const match = request.headers.authorization?.match(/^Bearer (\S+)$/i);
  return match !== null && match !== undefined && timingSafeEqual(sha256(match[1]!), sha256(token));
}

const ANSWERED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * GET /metrics in Prometheus's text format (prom-client), for a scraper that sends METRICS_TOKEN
 * as its bearer token; without METRICS_TOKEN it is not served at all (docs/decisions.md 562-563).
 * Each process is scraped at its own address (a load balancer in front would answer for any one).
 */
export function registerMetrics(app: FastifyInstance, options: { config: Config; db: Database }): void {
  const token = options.config.metricsToken;
  // Not served without the setting: a plain 404, never the app's page in its place.
  if (!token) {
    app.get('/metrics', { logLevel: 'warn' }, async () => {
      throw AppError.notFound();
    });
    return;
  }
  const { db } = options;
  const registry = new Registry();
  nodeMetrics(registry);
  registry.registerMetric(signingDuration);
  registry.registerMetric(pdfJobDuration);

  const requestDuration = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern (never the address asked for) and status.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The pattern the router matched ('/api/applications/:id'); an address no route has is one label.
    const route = request.routeOptions.url ?? 'unmatched';
    // Methods the portal answers by name; any other (PROPFIND, M-SEARCH…) is one label, so callers cannot add series.
    const method = ANSWERED_METHODS.has(request.method) ? request.method : 'other';
    requestDuration.observe({ method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  databaseGauges(registry, db);
  outboxGauges(registry, db);
  new Gauge({
    name: 'portal_pdf_workers_running',
    help: 'PDF worker threads running a job now (at most two).',
    registers: [registry],
    collect() {
      this.set(pdfWorkersRunning());
    },
  });
  new Gauge({
    name: 'portal_pdf_jobs_waiting',
    help: 'PDF jobs waiting for a free worker thread.',
    registers: [registry],
    collect() {
      this.set(pdfJobsWaiting());
    },
  });
  new Gauge({
    name: 'portal_idempotency_claims_held',
    help: 'Idempotency keys claimed by requests of this process that are still running.',
    registers: [registry],
    collect() {
      this.set(idempotencyClaimsHeld(db));
    },
  });

  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    if (!scrapeAllowed(request, token)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw AppError.unauthorized();
    }
    const text = await registry.metrics();
    return reply.type(registry.contentType).header('Cache-Control', 'no-store').send(text);
  });
}

/**
 * Node's own, from prom-client: event-loop lag (nodejs_eventloop_lag_*), heap, garbage collection,
 * handles, CPU, memory. Left out: the three gauges named `…_total` (the sums of the per-type gauges
 * beside them), which promtool refuses, as a `_total` suffix means a counter.
 */
const NOT_COUNTERS_NAMED_TOTAL = new Set([
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
]);

function nodeMetrics(registry: Registry): void {
  const node = new Registry();
  collectDefaultMetrics({ register: node });
  // getMetricsAsArray answers the metric objects themselves, typed as their description only.
  for (const metric of node.getMetricsAsArray() as unknown as (Metric & { name: string })[])
    if (!NOT_COUNTERS_NAMED_TOTAL.has(metric.name)) registry.registerMetric(metric);
}

/** The embedded database's queue of statements (it runs one at a time), or the PostgreSQL pool. */
function databaseGauges(registry: Registry, db: Database): void {
  const kind = databaseStats(db)?.kind;
  if (kind === 'pglite') {
    new Gauge({
      name: 'portal_db_embedded_pending',
      help: 'Statements and transactions on the embedded database running or waiting for it (it runs one at a time).',
      registers: [registry],
      collect() {
        const stats = databaseStats(db);
        if (stats?.kind === 'pglite') this.set(stats.pending);
      },
    });
  }
  if (kind === 'postgres') {
    const pool = (name: string, help: string, read: (stats: { total: number; idle: number; waiting: number }) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const stats = databaseStats(db);
          if (stats?.kind === 'postgres') this.set(read(stats));
        },
      });
    pool('portal_db_pool_connections', 'Connections the PostgreSQL pool holds (at most 10).', (s) => s.total);
    pool('portal_db_pool_idle_connections', 'Connections of the PostgreSQL pool not in use.', (s) => s.idle);
    pool('portal_db_pool_waiting_requests', 'Queries waiting for a connection of the PostgreSQL pool.', (s) => s.waiting);
  }
}

/**
 * The mail outbox, read when scraped: one count over the unsent emails' partial index
 * (emails_unsent_idx), so the scrape costs the backlog's size, never the whole table's.
 */
function outboxGauges(registry: Registry, db: Database): void {
  let reading: Promise<{ unsent: number; retrying: number } | undefined> | undefined;
  const read = () =>
    (reading ??= Promise.race([
      queryRows<{ unsent: string | number; retrying: string | number }>(
        db,
        sql`select count(*) as unsent, count(*) filter (where attempts > 0) as retrying from emails where sent_at is null`,
      ).then(([row]) => ({ unsent: Number(row?.unsent ?? 0), retrying: Number(row?.retrying ?? 0) })),
      sleep(OUTBOX_READ_TIMEOUT_MS, undefined, { ref: false }),
    ])
      .catch(() => undefined)
      .finally(() => (reading = undefined)));
  new Gauge({
    name: 'portal_mail_outbox_unsent',
    help: 'Emails in the outbox not yet sent (NaN when the database did not answer in time).',
    registers: [registry],
    async collect() {
      this.set((await read())?.unsent ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'portal_mail_outbox_retrying',
    help: 'Unsent emails whose sending failed at least once (NaN when the database did not answer in time).',
    registers: [registry],
    async collect() {
      this.set((await read())?.retrying ?? Number.NaN);
    },
  });
}
