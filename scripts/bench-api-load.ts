/**
 * The API benchmark's load (scripts/bench-api.ts): autocannon, in this process, for every call the
 * bare route included, so every figure and every ratio comes from the same generator. A call is one
 * run: a warm-up whose answers are thrown away, then the measured part. Each answer's status and time are
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

/** What a run tells as it goes: each answer (its status, its time, when it came) and each request that got none. */
interface Listeners {
  onAnswer: (status: number, ms: number) => void;
  onError: () => void;
}

function fire(
  base: string,
  call: Call,
  connections: number,
  seconds: number,
  amount: number | undefined,
  waiting: Waiting,
  listeners: Listeners,
) {
  const setupClient = (client: autocannon.Client) => {
    client.on('request', () => waiting.set(client, performance.now()));
    client.on('response', () => waiting.delete(client));
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
  instance.on('response', (_client, status, _bytes, ms) => listeners.onAnswer(status, ms));
  instance.on('reqError', () => listeners.onError());
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

/** What the machine, the server and this process had used when the measured part began. */
interface CpuMark {
  at: number;
  generator: NodeJS.CpuUsage;
  serverTicks: number;
  machine: { idle: number; total: number };
}

function cpuMark(serverPid: number): CpuMark {
  return { at: performance.now(), generator: process.cpuUsage(), serverTicks: cpuTicksOf(serverPid), machine: machineTimes() };
}

/**
 * One run against the server at `base`: a warm-up, then the measured part, on the same connections.
 * The warm-up is the first `warmUpSeconds` (or, for a call of a set amount, the first answer of each
 * connection); what is measured is every request sent after it. One run, not two: a second run's
 * new connections all asked at once, and met the requests the first had left waiting, which the
 * server still answered (up to one a connection; on the embedded database, up to 50 statements
 * queued): a search's p99 counted them, two to three times its median (docs/decisions.md 749).
 */
export async function measureCall(base: string, serverPid: number, call: Call, settings: LoadSettings): Promise<Measured> {
  const { connections, warmUpSeconds, seconds } = settings;
  /** The times of the requests sent after the warm-up (latency); the statuses of every answer that came after it (throughput). */
  const times: number[] = [];
  const statuses: Record<number, number> = {};
  let answeredAfter = 0;
  let errors = 0;
  let answers = 0;
  let mark: CpuMark | undefined;
  const begin = () => (mark ??= cpuMark(serverPid));
  /** A call of a set amount warms up by answers, not by time: the first answer of each connection. */
  const warmUp = call.amount === undefined || warmUpSeconds === 0 ? undefined : connections;
  const waiting: Waiting = new Map();
  const instance = fire(
    base,
    call,
    connections,
    warmUpSeconds + seconds,
    call.amount === undefined ? undefined : call.amount + (warmUp ?? 0),
    waiting,
    {
      onAnswer: (status, ms) => {
        answers++;
        if (mark) {
          answeredAfter++;
          statuses[status] = (statuses[status] ?? 0) + 1;
          // Sent after the warm-up too (the answer's time says when it was sent): its time is measured.
          if (performance.now() - ms >= mark.at) times.push(ms);
        }
        if (warmUp !== undefined && answers === warmUp) begin();
      },
      onError: () => {
        if (mark) errors++;
      },
    },
  );
  const timer = warmUp === undefined ? setTimeout(begin, warmUpSeconds * 1000) : undefined;
  await instance;
  clearTimeout(timer);
  const t1 = performance.now();
  const from = begin();
  const elapsedMs = t1 - from.at;
  const cutOff = [...waiting.values()].filter((sentAt) => sentAt >= from.at);
  for (const sentAt of cutOff) times.push(t1 - sentAt);
  const cpu = process.cpuUsage(from.generator);
  // /proc counts in clock ticks, 100 a second on Linux.
  const serverMs = (cpuTicksOf(serverPid) - from.serverTicks) * 10;
  const machine1 = machineTimes();
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
  return {
    requests: answeredAfter,
    rps: answeredAfter / (elapsedMs / 1000),
    p50: at(50),
    p99: at(99),
    statuses,
    errors,
    cutOff: cutOff.length,
    generatorCpu: ((cpu.user + cpu.system) / 1000 / elapsedMs) * 100,
    serverCpu: (serverMs / elapsedMs) * 100,
    machineIdle: (100 * (machine1.idle - from.machine.idle)) / Math.max(1, machine1.total - from.machine.total),
  };
}
