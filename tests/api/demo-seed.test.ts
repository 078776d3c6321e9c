import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { validateStep } from '../../src/shared/journey/validate';
import { isJourneyStep } from '../../src/shared/journey/steps';
import { startTestServer, type TestServer } from './harness';

// The demo seed itself, which the demo accounts and the end-to-end tests stand on; the other API
// tests build their own rows (factories.ts).
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({}, { seed: true });
});
afterAll(async () => {
  await server.close();
});

describe('demo data', () => {
  it('every saved step of the demo applications passes the shared step rules', async () => {
    const rows = await server.rows<{ step: string; data: unknown; application_id: number }>(
      sql`select application_id, step, data from application_steps`,
    );
    expect(rows.length).toBeGreaterThan(8);
    for (const row of rows) {
      if (!isJourneyStep(row.step)) throw new Error(`unknown step ${row.step}`);
      const result = validateStep(row.step, row.data, { audience: 'lawyer', today: new Date() });
      expect(result.success ? {} : result.fields, `${row.application_id} ${row.step}`).toEqual({});
    }
  });
});
