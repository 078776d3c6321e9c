import fs from 'node:fs';
import path from 'node:path';
import type http from 'node:http';
import Fastify, { type FastifyHttpOptions, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { Config } from './config';
import type { Database } from './db/connection';
import { startSessionAuthenticator, type SessionAuthenticator } from './auth/session-cache';
import { loadOperations, type Operation } from './contract/operations';
import { renderReferencePage } from './contract/reference-page';
import { validatorCompiler } from './contract/validation';
import { AppError } from './errors/app-error';
import { errorHandler } from './http/error-handler';
import { findNulCharacter } from './http/nul-characters';
import { keepRawBody } from './http/raw-body';
import { idempotencyHooks } from './http/idempotency';
import { securityHeaders } from './http/security-headers';
import { loggerOptions, type LogDestination } from './http/request-logging';
import { registerMultipart } from './files/multipart';
import { fileStorage } from './files/storage';
import { registerHealth } from './ops/health';
import { createLifecycle, type Lifecycle } from './ops/lifecycle';
import { runAsRequestWork } from './db/request-work';
import { registerMetrics } from './ops/metrics';
import { readMailbox, renderMailboxPage } from './mail/mailbox';
import { CONTRACT_PATH } from './paths';
import { handlers } from './routes';
import { assertMailboxClient } from './routes/dev';
import type { Handler, OperationId } from './routes/handler';
import { hasPermissions } from '../shared/rules/permissions';

export { CONTRACT_PATH };

export interface AppOptions {
  config: Config;
  db: Database;
  /** true: log to standard output; a destination: log there (tests). */
  logger?: boolean | LogDestination;
  /** Whether the process is shutting down (main.ts), as /readyz says; a fresh one serves. */
  lifecycle?: Lifecycle;
}

/** Builds the whole server: the API from the contract, the built PWA, the development mailbox. */
export async function buildApp({
  config,
  db,
  logger = false,
  lifecycle = createLifecycle(),
}: AppOptions): Promise<FastifyInstance> {
  const options: FastifyHttpOptions<http.Server> = {
    logger: logger ? loggerOptions(config.production, logger === true ? undefined : logger) : false,
    // A hop count trusts that many proxies nearest the server (what proxy-addr does for a number).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    ...serverTimeouts(config.timeouts),
    // Fastify's own answer while closing has its own body; ours below has the portal's (refuseWhileClosing).
    return503OnClosing: false,
  };
  const app = Fastify(options);
  refuseWhileClosing(app);
  // Each request keeps its own record of what it committed, which a shutdown's gate reads (db/request-work.ts).
  app.addHook('onRequest', (_request, _reply, done) => runAsRequestWork(done));
  app.setValidatorCompiler(validatorCompiler);
  app.decorateRequest('auth', null);
  securityHeaders(app, { production: config.production });
  app.setErrorHandler(errorHandler);

  // The built PWA first: its files are sent as compressed at build (.br/.gz beside them), so the
  // compression below, which only sees routes registered after it, never touches them.
  await serveClient(app, config.staticDir);
  await app.register(fastifyCompress, COMPRESSION);

  // Operations: health for load balancers, metrics for a scraper (docs/decisions.md 560-564).
  registerHealth(app, { db, storage: () => fileStorage(config, db), lifecycle });
  registerMetrics(app, { config, db });

  // Uploads are multipart; their handler streams the parts itself (files/multipart.ts).
  await registerMultipart(app);
  // Sessions are kept in memory, forgotten on the database's word (docs/decisions.md 610-612).
  const sessions = await startSessionAuthenticator(db, { enabled: config.sessionCache });
  app.addHook('onClose', () => sessions.close());
  const operations = loadOperations(CONTRACT_PATH).filter((op) => !op.devOnly || config.devMailbox);
  for (const op of operations)
    registerOperation(app, op, (handlers[op.operationId as OperationId] as Handler | undefined) ?? notImplemented, {
      config,
      db,
      lifecycle,
      sessions,
    });

  apiReference(app, { includeDevOnly: config.devMailbox });

  if (config.devMailbox) {
    app.get('/dev/mailbox', async (request, reply) => {
      assertMailboxClient(config, request);
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store');
      return renderMailboxPage(await readMailbox(db), config.publicUrl);
    });
  }
  return app;
}

/**
 * API answers (JSON) and server pages compressed on the fly above 1 KB, brotli at its fast
 * quality or gzip; never a request body (nothing sends one compressed, and an inflated body is
 * a way to exhaust memory); zstd left out so every Node version answers alike (decision 312).
 */
const COMPRESSION = {
  global: true,
  globalDecompression: false,
  threshold: 1024,
  encodings: ['br', 'gzip'],
} satisfies FastifyCompressOptions;

/**
 * The contract as a reference page, and the file itself (decision 316): public like the PWA's
 * code, which holds every call anyway; rendered on the first request and kept. Dev-only calls
 * are listed only where they answer.
 */
function apiReference(app: FastifyInstance, options: { includeDevOnly: boolean }): void {
  let page: string | undefined;
  app.get('/api/docs', async (_request, reply) => {
    page ??= renderReferencePage(CONTRACT_PATH, options);
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache');
    return page;
  });
  app.get('/api/docs/openapi.yaml', async (_request, reply) => {
    reply.type('text/yaml; charset=utf-8').header('Cache-Control', 'no-cache');
    return fs.promises.readFile(CONTRACT_PATH, 'utf8');
  });
}

/**
 * Node's limits on slow clients: headers and the whole request must arrive in time, a silent
 * connection is closed, an idle kept-alive one too. Node looks for late requests on an interval
 * (30 s by default), shortened here so a short limit is kept to within a quarter of itself.
 */
function serverTimeouts(t: Config['timeouts']): Partial<FastifyHttpOptions<http.Server>> {
  const checkEvery = Math.min(5_000, Math.max(100, Math.floor(Math.min(t.headersTimeoutMs, t.requestTimeoutMs) / 4)));
  return {
    requestTimeout: t.requestTimeoutMs,
    connectionTimeout: t.connectionTimeoutMs,
    keepAliveTimeout: t.keepAliveTimeoutMs,
    http: { headersTimeout: t.headersTimeoutMs, connectionsCheckingInterval: checkEvery },
  };
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/** A call the contract declares but no issue has built yet answers plainly, not with a 500. */
const notImplemented: Handler = async () => {
  throw new AppError(501, 'notImplemented');
};

function registerOperation(
  app: FastifyInstance,
  op: Operation,
  handler: Handler,
  { lifecycle, sessions, ...ctx }: { config: Config; db: Database; lifecycle: Lifecycle; sessions: SessionAuthenticator },
): void {
  const { body, ...others } = op.schema;
  // Only the parts the contract declares (an explicit undefined reads to Fastify as a missing schema).
  const schema = Object.fromEntries(
    Object.entries({ ...others, body: op.multipart ? undefined : body }).filter(([, part]) => part !== undefined),
  );
  app.route({
    method: op.method,
    url: op.url,
    schema,
    // A file download (PDF, ZIP) is sent as it is: compressing it again only costs CPU (decision 312).
    ...(op.binaryResponse ? { compress: false as const } : {}),
    // Authenticate, then check the contract's roles and permissions, before the body is looked at.
    onRequest: async (request) => {
      if (op.public) return;
      const token = bearerToken(request);
      const auth = token ? await sessions.authenticate(token) : undefined;
      if (!auth) throw AppError.unauthorized();
      request.auth = auth;
      const { role } = auth.user;
      const roleAllowed = role === 'root' || op.roles.length === 0 || op.roles.includes(role);
      if (!roleAllowed || !hasPermissions(role, op.permissions)) throw AppError.forbidden();
    },
    preValidation: async (request) => {
      const field = findNulCharacter(request.params) ?? findNulCharacter(request.query) ?? findNulCharacter(request.body);
      if (field) throw AppError.validation({ [field]: 'invalid' });
    },
    ...(op.rawBody ? { preParsing: keepRawBody } : {}),
    // Offline replays: the first answer of a key is kept and given again (http/idempotency.ts).
    ...(op.idempotent ? trackedIdempotencyHooks(ctx, lifecycle, op.multipart) : {}),
    handler: async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      // The contract has validated the request against the operation the handler is typed by.
      // Counted while it runs: a shutdown waits for it to clean up (ops/lifecycle.ts).
      const result = await lifecycle.track(() => handler(request as never, reply, ctx));
      if (reply.sent) return reply;
      if (result === undefined) return reply.code(reply.statusCode === 200 ? 204 : reply.statusCode).send();
      return result;
    },
  });
}

/**
 * The idempotency hooks, the claim counted as the handler is: a shutdown waits for a claim being
 * taken as for a handler running, so the claims it releases include it (ops/shutdown.ts).
 */
function trackedIdempotencyHooks(ctx: { config: Config; db: Database }, lifecycle: Lifecycle, multipart: boolean) {
  const hooks = idempotencyHooks(ctx.db, { multipart, leaseMs: ctx.config.timeouts.idempotencyLeaseMs });
  return {
    preHandler: (request: FastifyRequest, reply: FastifyReply) => lifecycle.track(() => hooks.preHandler(request, reply)),
    onSend: hooks.onSend,
  };
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer ([A-Za-z0-9_-]{20,200})$/i);
  return match?.[1];
}

/** Where the build writes the public pages' HTML (scripts/prerender.ts): prerendered/sign-in.html. */
const PRERENDER_DIR = 'prerendered';

/**
 * The public page prerendered at build for a path (decision 360), '/sign-in' → 'prerendered/sign-in.html',
 * looked up on each request like every built file (decision 346); undefined for any other path.
 */
function prerenderedPage(staticDir: string, pathname: string): string | undefined {
  // '/sign-in/' is the same page to the client's router; only plain path names are looked up.
  const name = pathname.replace(/\/+$/, '');
  if (!/^(\/[a-z0-9-]+)+$/.test(name)) return undefined;
  const file = `${PRERENDER_DIR}${name}.html`;
  return fs.existsSync(path.join(staticDir, file)) ? file : undefined;
}

/**
 * The built PWA with an SPA fallback: a public page prerendered at build gets its HTML (decision
 * 360), any other GET that wants HTML gets index.html. A text file goes out as the brotli or gzip
 * file written beside it at build (scripts/precompress.ts), as the browser accepts; the plain file
 * otherwise (decision 310). Files are looked up on each request (one wildcard route, not one route
 * per file found at start), so a build made while the server runs is served at once, new asset
 * names included (decision 346).
 */
async function serveClient(app: FastifyInstance, staticDir: string): Promise<void> {
  const indexFile = path.join(staticDir, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: true,
      index: false,
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        const name = path.relative(staticDir, filePath);
        // Hashed assets never change; the shell and the worker must be checked on every load.
        reply.header('Cache-Control', name.startsWith('assets' + path.sep) ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The same address answers brotli, gzip or plain bytes: a shared cache must keep them apart.
        reply.header('Vary', 'Accept-Encoding');
      },
    });
    // '/' is a folder to the wildcard route (which answers a folder 403): the app's shell is its page.
    app.get('/', async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile('index.html');
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApi && !/\.[a-z0-9]+$/i.test(pathname);
    if (built && wantsPage) {
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile(prerenderedPage(staticDir, pathname) ?? 'index.html');
    }
    return reply.code(404).send({ error: 'notFound' });
  });
}

/**
 * Once the server closes, a request still arriving on an open keep-alive connection is answered
 * 503 `unavailable` in the portal's error shape, with a retry and the connection closed, so the
 * client tries again on a server that is up (docs/decisions.md 565).
 */
function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    void reply.code(503).header('Retry-After', '2').header('Connection', 'close').send({ error: 'unavailable' });
  });
}
