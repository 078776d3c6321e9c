/**
 * The soak's cluster: one throw-away PostgreSQL, several server processes of the built portal
 * (dist-server/main.js) on it, and HAProxy in front with health checks on /readyz. Every process
 * listens on 127.0.0.1 only and writes its output to a log file in the run's folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, startThrowawayPostgres } from '../../tests/api/postgres-global-setup';

export interface ServerProcess {
  name: string;
  port: number;
  /** Starts the process and resolves once it answers /readyz. */
  start(): Promise<void>;
  /** SIGTERM, then waits for the process to exit on its own (its graceful shutdown). */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
  /** SIGKILL: no shutdown at all, as when a machine dies. */
  kill(): Promise<void>;
  running(): boolean;
}

export interface Cluster {
  /** HAProxy's address: where every client sends its requests. */
  url: string;
  databaseUrl: string;
  servers: ServerProcess[];
  folder: string;
  /** Ends every process; the folder with the logs is removed unless they are to be kept (a failed run). */
  stop(options?: { keepLogs?: boolean }): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../..');

export async function startCluster(options: { servers: number; env?: Record<string, string> }): Promise<Cluster> {
  const main = path.join(root, 'dist-server/main.js');
  if (!fs.existsSync(main)) throw new Error('dist-server/main.js is missing: run `npm run build` first.');
  const haproxy = findOnPath('haproxy');
  if (!haproxy) throw new Error('HAProxy is not installed: apt-get install -y haproxy');

  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-soak-'));
  const postgres = await startThrowawayPostgres({ prefix: 'portal-soak-pg-', settings: '-c max_connections=300' });
  const cleanups: (() => Promise<void> | void)[] = [() => postgres.stop()];
  const stop = async ({ keepLogs = false } = {}) => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    if (!keepLogs) fs.rmSync(folder, { recursive: true, force: true });
  };
  try {
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('create database portal');
    await admin.end();
    const databaseUrl = postgres.url.replace(/\/postgres$/, '/portal');
    const proxyPort = await freePort();
    const url = `http://127.0.0.1:${proxyPort}`;

    const servers: ServerProcess[] = [];
    for (let i = 1; i <= options.servers; i++) {
      servers.push(
        serverProcess(`s${i}`, await freePort(), folder, {
          // The second server's deadline is short, so its SIGTERM ends requests in flight (a signing's
          // sealing, an upload) and the shutdown's refusal path runs under traffic too.
          ...(i === 2 ? { SHUTDOWN_TIMEOUT_MS: '300' } : {}),
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          DATABASE_URL: databaseUrl,
          DATA_DIR: path.join(folder, `s${i}-data`),
          SEED_DEMO: '0',
          // HAProxy forwards the caller's address; the per-address limits count callers, not the proxy.
          TRUST_PROXY: '127.0.0.1',
          PUBLIC_URL: url,
          // Serve on while HAProxy's checks (every 500 ms, out after 2 failures) take the server out.
          SHUTDOWN_DRAIN_MS: '1500',
          ...options.env,
        }),
      );
    }
    cleanups.push(async () => {
      for (const server of servers) if (server.running()) await server.kill();
    });
    // The first one migrates the empty database; the others find it migrated.
    await servers[0]!.start();
    await Promise.all(servers.slice(1).map((server) => server.start()));

    const config = path.join(folder, 'haproxy.cfg');
    fs.writeFileSync(config, haproxyConfig(proxyPort, servers));
    const proxy = spawn(haproxy, ['-db', '-f', config], {
      stdio: ['ignore', logFile(folder, 'haproxy'), logFile(folder, 'haproxy')],
    });
    cleanups.push(() => endProcess(proxy));
    await waitFor(async () => (await fetch(`${url}/readyz`)).ok, 20_000, 'HAProxy did not answer /readyz');
    return { url, databaseUrl, servers, folder, stop };
  } catch (error) {
    await stop({ keepLogs: true });
    throw error;
  }
}

/**
 * Round robin over the servers; a server is taken out after two failed /readyz checks half a second
 * apart and back after two good ones. A connection that fails before the request is sent is tried
 * again on another server (redispatch); a request that reached a server is never sent twice by the
 * proxy: that is the client's retry, with its idempotency key.
 */
function haproxyConfig(port: number, servers: ServerProcess[]): string {
  return `global
  maxconn 4000

defaults
  mode http
  option forwardfor
  option redispatch
  retries 3
  timeout connect 2s
  timeout client 90s
  timeout server 90s

frontend portal
  bind 127.0.0.1:${port}
  default_backend portal

backend portal
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 500ms fall 2 rise 2
${servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`).join('\n')}
`;
}

function serverProcess(name: string, port: number, folder: string, env: Record<string, string>): ServerProcess {
  let child: ChildProcess | undefined;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  const launch = () => {
    fs.mkdirSync(env.DATA_DIR!, { recursive: true });
    const log = logFile(folder, name);
    child = spawn(process.execPath, [path.join(root, 'dist-server/main.js')], {
      cwd: root,
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', log, log],
    });
    const current = child;
    exited = new Promise((resolve) => current.once('exit', (code, signal) => resolve({ code, signal })));
  };
  return {
    name,
    port,
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    async start() {
      launch();
      const current = child!;
      await waitFor(
        async () => {
          if (current.exitCode !== null)
            throw new Error(`${name} exited with ${current.exitCode} while starting (see ${folder}/${name}.log)`);
          return (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
        },
        60_000,
        `${name} did not become ready`,
      );
    },
    async stop() {
      const started = Date.now();
      child!.kill('SIGTERM');
      const end = await Promise.race([exited!, delay(60_000).then(() => undefined)]);
      if (!end) throw new Error(`${name} did not exit within 60 s of SIGTERM`);
      return { ...end, ms: Date.now() - started };
    },
    async kill() {
      child!.kill('SIGKILL');
      await exited;
    },
  };
}

function logFile(folder: string, name: string): number {
  return fs.openSync(path.join(folder, `${name}.log`), 'a');
}

async function endProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, delay(5_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      if (error instanceof Error && !(error instanceof TypeError)) throw error;
    }
    if (Date.now() > deadline) throw new Error(message);
    await delay(200);
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function findOnPath(command: string): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/sbin']) {
    const candidate = path.join(dir, command);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}
