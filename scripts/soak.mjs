#!/usr/bin/env node
/**
 * The soak (`npm run soak`): the built portal scaled out and pushed through faults. One throw-away
 * PostgreSQL, three server processes on it behind HAProxy (health checks on /readyz), and mixed
 * traffic from every role (scripts/soak/traffic.ts). During the run each process is restarted in
 * turn (SIGTERM, wait for it to exit, start it again) and one is killed with SIGKILL and started
 * again. Clients retry network errors, 502, 503 and 504 with the same Idempotency-Key. Afterwards
 * it checks the database (scripts/soak/checks.ts) and prints throughput and latencies; it exits 1
 * when a check fails.
 *
 *   npm run build && npm run soak                  # 60 seconds
 *   SOAK_SECONDS=600 SOAK_FIRMS=8 npm run soak     # longer, more firms
 */
import pg from 'pg';
import { checkInvariants } from './soak/checks.ts';
import { httpClient, Stats } from './soak/client.ts';
import { delay, startCluster } from './soak/cluster.ts';
import { driveTraffic, newLedger, signInEveryone } from './soak/traffic.ts';
import { buildWorld } from './soak/world.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const SERVERS = Number(process.env.SOAK_SERVERS ?? 3);
const FIRMS = Number(process.env.SOAK_FIRMS ?? 4);
/** A loan takes ten drawdown requests a day and a lawyer fifty (docs/decisions.md 551). */
const LOANS_PER_FIRM = Number(process.env.SOAK_LOANS_PER_FIRM ?? 5);
/** Pounds per loan: small enough that its requests reach it, so the credit is tested under contention. */
const CREDIT_POUNDS = Number(process.env.SOAK_CREDIT ?? 3_000);

const cluster = await startCluster({ servers: SERVERS });
let failures = [];
try {
  console.log(`Soak: ${SERVERS} servers behind HAProxy on PostgreSQL, ${FIRMS} firms, ${SECONDS} s (logs in ${cluster.folder})`);
  const world = await buildWorld(cluster.databaseUrl, {
    firms: FIRMS,
    loansPerFirm: LOANS_PER_FIRM,
    creditPounds: CREDIT_POUNDS,
  });
  const database = new pg.Pool({ connectionString: cluster.databaseUrl, max: 4 });
  const stats = new Stats();
  const send = httpClient(cluster.url, stats);
  const tokens = await signInEveryone(send, world);
  const ledger = newLedger();

  const started = Date.now();
  const plan = { until: started + SECONDS * 1000, seconds: SECONDS };
  const traffic = driveTraffic(send, world, tokens, plan, ledger, database);
  const faults = await injectFaults(cluster, started);
  // Restarts take their time: traffic goes on until the last server is back and has served a while.
  plan.until = Math.max(plan.until, Date.now() + 5_000);
  await traffic;
  const elapsed = (Date.now() - started) / 1000;

  failures = await checkInvariants(database, world, ledger, stats);
  await database.end();
  report({ stats, ledger, faults, elapsed });
} catch (error) {
  failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  await cluster.stop({ keepLogs: failures.length > 0 });
}

if (failures.length > 0) {
  console.error(`\nSoak failed (logs were in ${cluster.folder}):`);
  for (const failure of failures) console.error(`  ✘ ${failure}`);
  process.exit(1);
}
console.log(
  '\nSoak passed: every acknowledged write is in the database exactly once, no loan past its credit, no 5xx left unretried.',
);

/**
 * Each process restarted in turn (SIGTERM, exit, start), then one killed outright and started
 * again, spread over the run's first four fifths.
 */
async function injectFaults(cluster, started) {
  const faults = [];
  const at = (fraction) => delay(Math.max(0, started + fraction * SECONDS * 1000 - Date.now()));
  const steps = cluster.servers.length + 1;
  for (const [i, server] of cluster.servers.entries()) {
    await at((0.8 * (i + 0.5)) / steps);
    const stopped = await server.stop();
    const t0 = Date.now();
    await server.start();
    faults.push(
      `${server.name}: SIGTERM at ${secondsSince(started)} s, exited ${stopped.code ?? stopped.signal} after ${stopped.ms} ms, ready again in ${Date.now() - t0} ms`,
    );
  }
  const victim = cluster.servers[Math.floor(Math.random() * cluster.servers.length)];
  await at((0.8 * (steps - 0.5)) / steps);
  await victim.kill();
  const t0 = Date.now();
  await victim.start();
  faults.push(`${victim.name}: SIGKILL at ${secondsSince(started)} s, ready again in ${Date.now() - t0} ms`);
  return faults;
}

function secondsSince(started) {
  return ((Date.now() - started) / 1000).toFixed(1);
}

function report({ stats, ledger, faults, elapsed }) {
  const percentile = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  };
  const ms = (value) => `${value.toFixed(0)} ms`;
  const byStatus = [...ledger.drawdowns.values()].reduce(
    (counts, d) => ({ ...counts, [d.status]: (counts[d.status] ?? 0) + 1 }),
    {},
  );
  console.log(`\nRan ${elapsed.toFixed(1)} s`);
  console.log(
    `  calls ${stats.calls} (${(stats.calls / elapsed).toFixed(1)}/s), attempts ${stats.attempts}, retried ${stats.retries}, network errors ${stats.networkErrors}`,
  );
  console.log(
    `  answers by status: ${[...stats.statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(', ')}`,
  );
  console.log(`  attempt latency p50 ${ms(percentile(stats.attemptMs, 50))}, p99 ${ms(percentile(stats.attemptMs, 99))}`);
  console.log(`  call latency with retries p50 ${ms(percentile(stats.callMs, 50))}, p99 ${ms(percentile(stats.callMs, 99))}`);
  console.log(
    `  acknowledged: drawdowns ${ledger.drawdowns.size} (${Object.entries(byStatus)
      .map(([s, n]) => `${s} ${n}`)
      .join(
        ', ',
      )}), step saves ${[...ledger.stepSaves.values()].reduce((a, b) => a + b, 0)}, uploads ${[...ledger.uploads.values()].reduce((a, ids) => a + ids.length, 0)}, signatures ${ledger.signed.size}`,
  );
  if (ledger.refusals.size > 0) console.log(`  final refusals: ${[...ledger.refusals].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  console.log('  faults:');
  for (const fault of faults) console.log(`    ${fault}`);
}
