import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { and, eq, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, downloadTokens, emails, files, idempotencyKeys, sessions, users } from '../../src/server/db/schema';
import { excludedTables, extractTables } from '../../src/server/services/dump/extract-tables';
import { getTableName } from 'drizzle-orm';
import {
  buildApplication,
  buildClient,
  buildDrawdown,
  buildFirmAdmin,
  buildLawyer,
  buildLoan,
  buildSolicitor,
  buildUser,
  signInAs,
  type BuiltUser,
} from './factories';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
let admin: BuiltUser;
let adminToken: string;
const tokens: Record<'root' | 'firm' | 'lawyer' | 'customer', string> = { root: '', firm: '', lawyer: '', customer: '' };

/** A name with everything CSV must quote: a comma, a double quote and a line break. */
const AWKWARD_NAME = 'O\'Brien, "Bobby"\nJunior';
const FORMULA_NAME = '=HYPERLINK("http://evil.test","click")';
const RESET_TOKEN = `reset-${randomBytes(12).toString('hex')}`;
const STORED_ANSWER = `answer-${randomBytes(12).toString('hex')}`;
const STORAGE_KEY = `storage-${randomBytes(12).toString('hex')}`;

beforeAll(async () => {
  server = await startTestServer();
  const { db } = server;
  admin = await buildUser(db, { role: 'admin' });
  adminToken = await signInAs(server, admin);
  tokens.root = await signInAs(server, await buildUser(db, { role: 'root' }));
  const firmAdmin = await buildFirmAdmin(db);
  tokens.firm = await signInAs(server, firmAdmin);
  const lawyer = await buildLawyer(db, { firmId: firmAdmin.firmId });
  tokens.lawyer = await signInAs(server, lawyer);
  const client = await buildClient(db, { firstName: AWKWARD_NAME, surname: FORMULA_NAME });
  tokens.customer = await signInAs(server, client);
  const application = await buildApplication(db, {
    lawyerId: lawyer.id,
    clientId: client.id,
    status: 'approved',
    steps: { case: { caseRef: 'CR-1, "A"' } },
  });
  const loan = await buildLoan(db, { applicationId: application.id, creditOffered: 12_345.67 });
  await buildDrawdown(db, { loanId: loan.id, amount: 100.01, status: 'paid', requestedBy: lawyer.userId });
  await buildDrawdown(db, { loanId: loan.id, amount: 250, requestedBy: lawyer.userId });
  await buildSolicitor(db);
  await db.insert(emails).values({
    toAddress: client.email,
    subject: 'Reset your password',
    textBody: `Open /reset/validate/${RESET_TOKEN}`,
    htmlBody: `<a href="/reset/validate/${RESET_TOKEN}">reset</a>`,
    userType: 'customer',
    lastError: 'smtp said no',
  });
  await db.insert(idempotencyKeys).values({
    userId: lawyer.userId,
    key: randomBytes(8).toString('hex'),
    method: 'POST',
    path: '/api/drawdowns',
    requestHash: 'h',
    statusCode: 201,
    responseBody: { secret: STORED_ANSWER },
  });
  await db.insert(files).values({
    applicationId: application.id,
    key: STORAGE_KEY,
    name: 'Form E',
    fileName: 'form-e.pdf',
    type: 'formE',
    contentType: 'application/pdf',
    size: 10,
    uploadedBy: lawyer.userId,
  });
});
afterAll(async () => {
  await server.close();
});

/** The link GET /common/dump answers this token with. */
async function extractLink(token = adminToken): Promise<{ url: string; fileName: string; expiresAt: string }> {
  const res = await server.call({ method: 'GET', url: '/api/common/dump', token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** RFC 4180 records of a CSV (the BOM dropped): what a spreadsheet reads. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.replace(/^\ufeff/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && body[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(quoted, 'an unterminated quote').toBe(false);
  expect(field === '' && record.length === 0, 'the last line ends with CRLF').toBe(true);
  return records;
}

interface Manifest {
  extractedAt: string;
  extractedBy: number;
  tables: { table: string; file: string; rows: number; columns: string[] }[];
  excludedTables: string[];
}

async function openExtract(url: string) {
  const res = await server.call({ method: 'GET', url });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  const entries = unzipSync(new Uint8Array(res.rawPayload));
  const manifest = JSON.parse(strFromU8(entries['manifest.json']!)) as Manifest;
  const csv = (file: string) => parseCsv(strFromU8(entries[file]!));
  return { res, entries, manifest, csv };
}

describe('GET /common/dump: who may extract', () => {
  it('answers staff (admin and root) a short-lived link to a ZIP', async () => {
    for (const token of [adminToken, tokens.root]) {
      const link = await extractLink(token);
      expect(link.url).toMatch(/^\/api\/files\/[A-Za-z0-9_-]{43}$/);
      expect(link.fileName).toMatch(/^database-extract-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.zip$/);
      const minutes = (Date.parse(link.expiresAt) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(4);
      expect(minutes).toBeLessThanOrEqual(5);
    }
  });

  it('refuses a lawyer, a firm admin and a client (403), and anyone signed out (401)', async () => {
    for (const role of ['lawyer', 'firm', 'customer'] as const) {
      const res = await server.call({ method: 'GET', url: '/api/common/dump', token: tokens[role] });
      expect(res.statusCode, role).toBe(403);
    }
    expect((await server.call({ method: 'GET', url: '/api/common/dump' })).statusCode).toBe(401);
    expect((await server.call({ method: 'GET', url: '/api/common/dump', token: 'x'.repeat(43) })).statusCode).toBe(401);
  });
});

describe('the extract', () => {
  let opened: Awaited<ReturnType<typeof openExtract>>;
  let link: { url: string; fileName: string };
  beforeAll(async () => {
    link = await extractLink();
    opened = await openExtract(link.url);
  });

  it('is a ZIP download named as the link said, never cached', () => {
    expect(opened.res.headers['content-type']).toBe('application/zip');
    expect(opened.res.headers['content-disposition']).toContain(`attachment; filename="${link.fileName}"`);
    expect(opened.res.headers['cache-control']).toBe('no-store');
  });

  it('holds one CSV per listed table and a manifest whose counts are the rows of each file and of the database', async () => {
    const names = extractTables.map((spec) => getTableName(spec.table));
    expect(Object.keys(opened.entries).sort()).toEqual([...names.map((n) => `${n}.csv`), 'manifest.json'].sort());
    expect(opened.manifest.tables.map((t) => t.table)).toEqual(names);
    expect(opened.manifest.excludedTables.sort()).toEqual(Object.keys(excludedTables).sort());
    expect(opened.manifest.extractedBy).toBe(admin.userId);
    for (const entry of opened.manifest.tables) {
      const [header, ...rows] = opened.csv(entry.file);
      expect(header, entry.table).toEqual(entry.columns);
      expect(rows.length, entry.table).toBe(entry.rows);
      for (const row of rows) expect(row.length, entry.table).toBe(header!.length);
      const [count] = await server.rows<{ n: number | string }>(sql`select count(*) as n from ${sql.identifier(entry.table)}`);
      expect(Number(count!.n), entry.table).toBe(entry.rows);
    }
    const count = (table: string) => opened.manifest.tables.find((t) => t.table === table)!.rows;
    expect(count('loans')).toBe(1);
    expect(count('drawdowns')).toBe(2);
    expect(count('users')).toBe(5);
  });

  it('keeps money in pence, as stored', () => {
    const [header, ...rows] = opened.csv('loans.csv');
    expect(rows[0]![header!.indexOf('amount_pence')]).toBe('1234567');
    const [dHeader, ...drawdownRows] = opened.csv('drawdowns.csv');
    expect(drawdownRows.map((r) => r[dHeader!.indexOf('amount_pence')]).sort()).toEqual(['10001', '25000']);
  });

  it('quotes a name with a comma, a double quote and a line break so it reads back exactly', () => {
    const [header, ...rows] = opened.csv('clients.csv');
    const client = rows.find((r) => r[header!.indexOf('first_name')] === AWKWARD_NAME);
    expect(client).toBeDefined();
    // A name a spreadsheet would run as a formula is kept as text.
    expect(client![header!.indexOf('last_name')]).toBe(`'${FORMULA_NAME}`);
    const raw = strFromU8(opened.entries['clients.csv']!);
    expect(raw).toContain('"O\'Brien, ""Bobby""\nJunior"');
    // UTF-8 with a byte order mark (so spreadsheets read accents), then the header.
    expect([...opened.entries['clients.csv']!.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(raw.startsWith('id,user_id,first_name,')).toBe(true);
  });

  it('holds no password hash, token hash, stored answer, email body, storage key or file content', async () => {
    const everything = Object.values(opened.entries)
      .map((bytes) => strFromU8(bytes))
      .join('\n');
    expect(everything).not.toContain('$argon2');
    expect(everything).not.toContain(RESET_TOKEN);
    expect(everything).not.toContain(STORED_ANSWER);
    expect(everything).not.toContain(STORAGE_KEY);
    expect(everything).not.toContain('smtp said no');
    expect(everything).not.toContain('%PDF');
    const hashes = [
      ...(await server.db.select({ h: sessions.tokenHash }).from(sessions)),
      ...(await server.db.select({ h: downloadTokens.tokenHash }).from(downloadTokens)),
    ].map((r) => r.h);
    expect(hashes.length).toBeGreaterThan(5);
    for (const hash of hashes) expect(everything).not.toContain(hash);
    const headers = opened.manifest.tables.flatMap((t) => t.columns.map((c) => `${t.table}.${c}`));
    for (const column of ['users.password_hash', 'sessions.token_hash', 'user_tokens.token_hash', 'download_tokens.token_hash'])
      expect(headers).not.toContain(column);
    expect(Object.keys(opened.entries)).not.toContain('idempotency_keys.csv');
  });

  it('is audited: who extracted, when', async () => {
    const events = await server.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'database'), eq(auditEvents.action, 'extracted')));
    const mine = events.filter((e) => e.actorUserId === admin.userId);
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(mine.at(-1)!.toState).toMatchObject({ fileName: link.fileName });
    expect(Date.now() - mine.at(-1)!.at.getTime()).toBeLessThan(60_000);
  });
});

describe('the extract link', () => {
  it('stops working when it expires', async () => {
    const { url } = await extractLink();
    await server.db
      .update(downloadTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(downloadTokens.kind, 'databaseExtract'));
    expect((await server.call({ method: 'GET', url })).statusCode).toBe(404);
  });

  it("works only while the session that asked for it does: another session's sign-out leaves it", async () => {
    const phone = await signInAs(server, admin);
    const desk = await signInAs(server, admin);
    const fromPhone = await extractLink(phone);
    const fromDesk = await extractLink(desk);
    expect((await server.call({ method: 'DELETE', url: '/api/auth', token: phone })).statusCode).toBe(204);
    expect((await server.call({ method: 'GET', url: fromPhone.url })).statusCode).toBe(404);
    expect((await server.call({ method: 'GET', url: fromDesk.url })).statusCode).toBe(200);
  });

  it('is refused once its account is no longer staff', async () => {
    const former = await buildUser(server.db, { role: 'admin' });
    const { url } = await extractLink(await signInAs(server, former));
    await server.db.update(users).set({ role: 'lawyer' }).where(eq(users.id, former.userId));
    expect((await server.call({ method: 'GET', url })).statusCode).toBe(404);
  });
});

describe('a large table', () => {
  const ROWS = 5_000;
  const TEXT = 4_000;

  /** The V8 collector, to weigh what is still held rather than what awaits collection. */
  function collector(): () => void {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  }

  it('is read in batches and streamed: memory stays far below the size of the table', async () => {
    for (let start = 0; start < ROWS; start += 500) {
      await server.db.insert(auditEvents).values(
        Array.from({ length: 500 }, (_, i) => ({
          actorUserId: admin.userId,
          entityType: 'bulk',
          entityId: String(start + i),
          action: 'filled',
          toState: { note: randomBytes(TEXT / 2).toString('hex') },
        })),
      );
    }
    const gc = collector();
    const { url } = await extractLink();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;

    // The bytes go to a file as they arrive, and are read back by the ZIP's central directory, as
    // every unzip tool reads them. (A streaming reader must guess where an entry of unknown size
    // ends by looking for a signature, and a compressed table of this size holds one by chance
    // now and then.)
    const saved = join(mkdtempSync(join(tmpdir(), 'extract-')), 'extract.zip');
    const out = createWriteStream(saved);

    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    let bytes = 0;
    let chunks = 0;
    const res = await fetch(`http://127.0.0.1:${port}${url}`);
    expect(res.status).toBe(200);
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      if (!out.write(chunk)) await once(out, 'drain');
      if (++chunks % 16 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      }
    }
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    console.log(`held ${(peak / 1e6).toFixed(1)} MB`);

    let entries: ReturnType<typeof unzipSync>;
    try {
      entries = unzipSync(readFileSync(saved), {
        filter: (file) => file.name === 'audit_events.csv' || file.name === 'manifest.json',
      });
    } finally {
      rmSync(dirname(saved), { recursive: true, force: true });
    }
    const manifestText = strFromU8(entries['manifest.json']!);
    const auditLines = (strFromU8(entries['audit_events.csv']!).match(/\r\n/g) ?? []).length;

    const manifest = JSON.parse(manifestText) as Manifest;
    const audit = manifest.tables.find((t) => t.table === 'audit_events')!;
    expect(audit.rows).toBeGreaterThanOrEqual(ROWS);
    expect(auditLines - 1).toBe(audit.rows);
    const tableBytes = ROWS * TEXT;
    expect(bytes).toBeGreaterThan(tableBytes / 4);
    // One batch (500 rows of 4 kB) and its compressed output are held at a time, never the table.
    expect(peak, `held ${(peak / 1e6).toFixed(1)} MB of a ${(tableBytes / 1e6).toFixed(0)} MB table`).toBeLessThan(
      tableBytes / 3,
    );
  });
});
