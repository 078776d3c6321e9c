/**
 * The API benchmark's load (scripts/bench-api.ts): autocannon, in this process, for every call the
 * bare route included, so every figure and every ratio comes from the same generator. A call is a
 * warm-up whose answers are thrown away, then the measured run. Each answer's status and time are
 * recorded here (autocannon's own histogram keeps whole milliseconds and only 2xx latencies). The
 * generator's CPU, the server's and the machine's idle share during the measured run tell which of
 * them was the limit (docs/decisions.md (600)).
 */
import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';

export interface LoadSettings {
  connections: number;
  warmUpSeconds: number;
  seconds: number;
}

export interface Call {
  method?: 'GET' | 'POST';
  path: string;
  token?: string;
  body?: unknown;
  /** At most this many requests in the measured run (sign-ins: argon2 and rate-limited), else the time. */
  amount?: number;
  /** Each connection's own requests (the step save: its own application and the version it last saw). */
  setupClient?: (client: autocannon.Client) => void;
}

export interface Measured {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
  /** Connection errors and timeouts (no answer at all). */
  errors: number;
  /**
   * Requests still waiting when the time was up (at most one a connection): autocannon does not wait
   * for them, so each is counted in p50 and p99 at the time it had waited, a lower bound.
   */
  cutOff: number;
  /** Per cent of one core, during the measured run. */
  generatorCpu: number;
  serverCpu: number;
  /** Per cent of the machine's CPU time left idle during the measured run (all cores). */
  machineIdle: number;
}

/** Requests that did not get a 2xx answer, or none at all. */
export function failures(m: Measured): number {
  const non2xx = Object.entries(m.statuses)
    .filter(([code]) => !code.startsWith('2'))
    .reduce((sum, [, n]) => sum + n, 0);
  return non2xx + m.errors;
}

/** What is wrong with a call's answers, if anything: answers not 2xx, none at all, or no answer in the time. */
export function flagOf(m: Measured): string | undefined {
  if (m.requests === 0) return 'no answer within the measured time';
  const failed = failures(m);
  return failed > 0 ? `${failed} not 2xx` : undefined;
}

/**
 * Which side held the rate: the generator's thread or the server's (either near a whole core), or
 * neither (waiting: on the database, or on the other work of a shared machine).
 */
export function limit(m: Measured): string {
  if (m.generatorCpu >= 85) return 'generator';
  if (m.serverCpu >= 85) return 'server';
  return m.machineIdle < 10 ? 'machine busy' : 'waiting';
}

function headersOf(call: Call): Record<string, string> {
  return {
    ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
    ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
  };
}

/** Each connection's request waiting for its answer, by when it was sent. */
type Waiting = Map<autocannon.Client, number>;

async function fire(
  base: string,
  call: Call,
  connections: number,
  seconds: number,
  amount: number | undefined,
  record?: (status: number, ms: number) => void,
  waiting?: Waiting,
): Promise<autocannon.Result> {
  const setupClient = (client: autocannon.Client) => {
    if (waiting) {
      client.on('request', () => waiting.set(client, performance.now()));
      client.on('response', () => waiting.delete(client));
    }
    call.setupClient?.(client);
  };
  const instance = autocannon({
    url: base + call.path,
    connections,
    duration: seconds,
    ...(amount === undefined ? {} : { amount }),
    method: call.method ?? 'GET',
    headers: headersOf(call),
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    timeout: 30,
    setupClient,
  });
  if (record) instance.on('response', (_client, status, _bytes, ms) => record(status, ms));
  return instance;
}

/** Clock ticks of CPU a process has used (user and system), from /proc. */
function cpuTicksOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function machineTimes(): { idle: number; total: number } {
  return os.cpus().reduce(
    (sum, cpu) => {
      const t = cpu.times;
      return { idle: sum.idle + t.idle, total: sum.total + t.user + t.nice + t.sys + t.idle + t.irq };
    },
    { idle: 0, total: 0 },
  );
}

/** The warm-up (its answers discarded), then the measured run against the server at `base`. */
export async function measureCall(base: string, serverPid: number, call: Call, settings: LoadSettings): Promise<Measured> {
  const { connections } = settings;
  if (settings.warmUpSeconds > 0)
    await fire(base, call, connections, settings.warmUpSeconds, call.amount === undefined ? undefined : connections);
  const times: number[] = [];
  const statuses: Record<number, number> = {};
  const cpu0 = process.cpuUsage();
  const server0 = cpuTicksOf(serverPid);
  const machine0 = machineTimes();
  const waiting: Waiting = new Map();
  const t0 = performance.now();
  const result = await fire(
    base,
    call,
    connections,
    settings.seconds,
    call.amount,
    (status, ms) => {
      times.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    },
    waiting,
  );
  const t1 = performance.now();
  const elapsedMs = t1 - t0;
  const answered = times.length;
  for (const sentAt of waiting.values()) times.push(t1 - sentAt);
  const cpu = process.cpuUsage(cpu0);
  // /proc counts in clock ticks, 100 a second on Linux.
  const serverMs = (cpuTicksOf(serverPid) - server0) * 10;
  const machine1 = machineTimes();
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
  return {
    requests: answered,
    rps: answered / (elapsedMs / 1000),
    p50: at(50),
    p99: at(99),
    statuses,
    errors: result.errors,
    cutOff: waiting.size,
    generatorCpu: ((cpu.user + cpu.system) / 1000 / elapsedMs) * 100,
    serverCpu: (serverMs / elapsedMs) * 100,
    machineIdle: (100 * (machine1.idle - machine0.idle)) / Math.max(1, machine1.total - machine0.total),
  };
}
