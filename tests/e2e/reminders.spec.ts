/**
 * Staff read on the record when the last reminder went out (docs/decisions.md 698). A reminder
 * goes out days after a record entered its status, from the database's clock: this spec runs a
 * server of its own on a folder of its own, stops it once it has seeded the demo data, moves the
 * demo's waiting records' status times four days back in that database, and starts it again; its
 * sweep at start sends the first reminders, which staff then read on both screens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../../src/server/db/connection';
import { demo, signIn } from './support';

// Beside the suite's own server: the port after it.
const port = Number(process.env.E2E_PORT ?? 4317) + 1;
const origin = `http://127.0.0.1:${port}`;
const shots = process.env.REMINDER_SHOTS_DIR;

test.use({ baseURL: origin });
test.describe.configure({ mode: 'serial' });

let dataDir: string;
let server: ChildProcess | undefined;
let drawdownId: number;
let applicationId: number;

async function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist-server/main.js'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: origin, NODE_ENV: 'test' },
    stdio: 'ignore',
  });
  for (let attempt = 0; attempt < 240; attempt++) {
    if (child.exitCode !== null) throw new Error(`the server stopped at start (${child.exitCode})`);
    const ready = await fetch(`${origin}/api/config`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not start');
}

async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-reminders-e2e-'));
  await stopServer(await startServer());
  const handle = await openDatabase({ databaseUrl: undefined, dataDir });
  try {
    await handle.db.execute(sql`update drawdowns set status_changed_at = now() - interval '4 days' where status = 'requested'`);
    // One of the demo lawyer's, so the lawyer may open it too.
    const [drawdown] = await queryRows<{ id: number }>(
      handle.db,
      sql`select d.id from drawdowns d join lawyers l on l.id = d.lawyer_id join users u on u.id = l.user_id
          where d.status = 'requested' and u.email = ${demo.lawyer} order by d.id limit 1`,
    );
    const [application] = await queryRows<{ id: number }>(
      handle.db,
      sql`update applications set status_changed_at = now() - interval '4 days' where status = 'submitted' returning id`,
    );
    drawdownId = drawdown!.id;
    applicationId = application!.id;
  } finally {
    await handle.close();
  }
  server = await startServer();
});

test.afterAll(async () => {
  await stopServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const LINE = /^Last reminder sent \d\d\/\d\d\/\d{4} \d\d:\d\d \(1 of 3\)$/;

/** The page, read again until the sweep that runs at start has sent the first reminder. */
async function openUntilReminded(page: Page, url: string): Promise<void> {
  await expect(async () => {
    await page.goto(url);
    await expect(page.getByTestId('last-reminder')).toHaveText(LINE, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  for (const width of [390, 1024, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(shots, `${name}-${width}.png`) });
  }
}

test('staff read when the last reminder went out, on the drawdown and on the application', async ({ page }) => {
  await signIn(page, demo.admin);
  await openUntilReminded(page, `/drawdowns/${drawdownId}`);
  await shoot(page, 'drawdown');
  await openUntilReminded(page, `/applications/${applicationId}/details`);
  await expect(page.getByRole('complementary', { name: 'Review' }).getByTestId('last-reminder')).toBeVisible();
  await shoot(page, 'application');
});

test('the client and the lawyer are not shown staff’s reminder line', async ({ page }) => {
  await signIn(page, demo.lawyer);
  await page.goto(`/drawdowns/${drawdownId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Drawdown' })).toBeVisible();
  await expect(page.getByText('Open loan')).toBeVisible();
  await expect(page.getByTestId('last-reminder')).toHaveCount(0);
});
