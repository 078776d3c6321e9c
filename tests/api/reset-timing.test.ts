import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { users } from '../../src/server/db/schema';
import { RESET_ANSWER_MS } from '../../src/server/auth/steady-answer';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
const TRIES = 20;

beforeAll(async () => {
  server = await startTestServer();
  // One account per try, so no per-account limit is reached.
  await server.db
    .insert(users)
    .values(Array.from({ length: TRIES }, (_, i) => ({ email: `timing.${i}@demo.test`, role: 'lawyer', status: 'active' })));
});
afterAll(async () => {
  await server.close();
});

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
};

async function timedReset(login: string, remoteAddress: string): Promise<number> {
  const started = performance.now();
  const res = await server.call({ method: 'POST', url: '/api/users/reset', payload: { login }, remoteAddress });
  const took = performance.now() - started;
  expect(res.statusCode, res.body).toBe(204);
  return took;
}

describe('a reset request takes the same time whether or not the account exists', () => {
  it(`answers both after ${RESET_ANSWER_MS} ms, alike over ${TRIES} tries each`, async () => {
    const existing: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      // Alternated, each from its own address, so both see the same conditions and no limit.
      existing.push(await timedReset(`timing.${i}@demo.test`, `10.1.0.${i + 1}`));
      unknown.push(await timedReset(`nobody.${i}@demo.test`, `10.2.0.${i + 1}`));
    }
    expect(median(existing)).toBeGreaterThanOrEqual(RESET_ANSWER_MS);
    expect(median(unknown)).toBeGreaterThanOrEqual(RESET_ANSWER_MS);
    const times = `existing ${existing.map(Math.round).join(' ')}; unknown ${unknown.map(Math.round).join(' ')}`;
    // A busy machine delays single answers by tens of ms: the medians get a margin for that, the
    // fastest answers (the least disturbed) must match closely.
    expect(Math.abs(median(existing) - median(unknown)), times).toBeLessThan(25);
    expect(Math.abs(Math.min(...existing) - Math.min(...unknown)), times).toBeLessThan(3);
    // The work was done before the answer: every existing account has its email already.
    const [sent] = await server.rows<{ n: number }>(sql`select count(*)::int as n from emails where to_address like 'timing.%'`);
    expect(sent!.n).toBe(TRIES);
  });
});
