import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationStatus } from '../../src/shared/rules/statuses';
import { contentDisposition } from '../../src/server/files/content-disposition';
import { startTestServer, type TestServer } from './harness';
import { fetchLink, multipart, otherLawyer, setStatus, smallPdf, uploadRequest } from './files-helpers';
import { personal, validSteps } from './applications-fixtures';
import { buildApplication, buildClient, buildFirmAdmin, buildLawyer, buildUser, signInAs } from './factories';

let server: TestServer;
let filesDir: string;
const tokens = {} as Record<'lawyer' | 'customer' | 'firm' | 'admin' | 'root' | 'other', string>;
const apps = {} as Record<
  'incomplete' | 'created' | 'submitted' | 'providerAccepted' | 'esignPrepared' | 'rejected' | 'customer',
  number
>;
let pdf: Buffer;

beforeAll(async () => {
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-files-'));
  server = await startTestServer({ filesDir });
  const { db } = server;
  const lawyer = await buildLawyer(db);
  const firmAdmin = await buildFirmAdmin(db, { firmId: lawyer.firmId });
  const customer = await buildClient(db);
  const accounts = {
    lawyer,
    customer,
    firm: firmAdmin,
    admin: await buildUser(db, { role: 'admin' }),
    root: await buildUser(db, { role: 'root' }),
  };
  for (const role of ['lawyer', 'customer', 'firm', 'admin', 'root'] as const)
    tokens[role] = await signInAs(server, accounts[role]);
  tokens.other = await otherLawyer(server);
  const application = async (status: ApplicationStatus, clientId?: number) =>
    (
      await buildApplication(db, {
        lawyerId: lawyer.id,
        clientId,
        status,
        steps: { personal: personal(`${status}.${clientId ?? 'new'}@example.test`), ...validSteps },
      })
    ).id;
  apps.incomplete = await application('incomplete');
  apps.created = await application('created');
  apps.submitted = await application('submitted');
  apps.providerAccepted = await application('providerAccepted');
  apps.esignPrepared = await application('esignPrepared');
  apps.rejected = await application('providerRejected');
  apps.customer = await application('customerAccepted', customer.id);
  pdf = await smallPdf();
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

const storedKeys = () => server.storage().keys();
/** Partial writes left in the storage: none on disk (`.part` files) and none in PostgreSQL. */
const partialWrites = async () => [
  ...fs.readdirSync(filesDir, { recursive: true }).filter((n) => String(n).endsWith('.part')),
  ...(await server.storage().inventory()).filter((entry) => entry.partial).map((entry) => entry.name),
];
const fileRows = (applicationId: number) =>
  server.rows<{ id: number; key: string; deleted_at: string | null; type: string }>(
    sql`select id, key, deleted_at, type from files where application_id = ${applicationId} order by id`,
  );

describe('POST /applications/file/upload', () => {
  it('stores a real PDF, answers the FileRecord and records an audit event', async () => {
    const before = (await storedKeys()).length;
    const res = await server.call(
      uploadRequest({
        applicationId: apps.incomplete,
        type: 'formE',
        bytes: pdf,
        partFileName: 'Form E – Priya.pdf',
        token: tokens.lawyer!,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json();
    expect(record).toMatchObject({ name: 'Form E – Priya.pdf', fileName: 'Form E – Priya.pdf', type: 'formE', size: pdf.length });
    expect(record.url).toBe(`/api/applications/${apps.incomplete}/docs/formE/download?fileId=${record.id}`);
    expect(await storedKeys()).toHaveLength(before + 1);
    expect(await storedKeys()).toContain(record.key);
    const audit = await server.rows<{ action: string }>(
      sql`select action from audit_events where entity_type = 'application' and entity_id = ${String(apps.incomplete)} and action = 'fileUploaded'`,
    );
    expect(audit).toHaveLength(1);

    // The download link works without a bearer token and gives the same bytes, named.
    const link = await server.call({ method: 'GET', url: record.url, token: tokens.lawyer });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json().url).toMatch(/^\/api\/files\/[A-Za-z0-9_-]{43}$/);
    const file = await fetchLink(server, link.json().url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(contentDisposition('Form E – Priya.pdf'));
    expect(file.rawPayload.equals(pdf)).toBe(true);
  });

  it('takes the fileName field over the part’s own name', async () => {
    const res = await server.call(
      uploadRequest({
        applicationId: apps.incomplete,
        type: 'formE',
        bytes: pdf,
        fileName: 'Financial statement.pdf',
        partFileName: 'blob',
        token: tokens.lawyer!,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().fileName).toBe('Financial statement.pdf');
  });

  it('refuses a file that is not a PDF by its bytes, whatever its name, and stores nothing', async () => {
    const before = await storedKeys();
    const rows = (await fileRows(apps.incomplete)).length;
    for (const bytes of [Buffer.from('GIF89a not a pdf at all'), Buffer.alloc(0), Buffer.from('%PD')]) {
      const res = await server.call(
        uploadRequest({ applicationId: apps.incomplete, type: 'formE', bytes, partFileName: 'image.pdf', token: tokens.lawyer! }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'fileType', fields: { file: 'fileType' } });
    }
    expect(await storedKeys()).toEqual(before);
    expect(await fileRows(apps.incomplete)).toHaveLength(rows);
    expect(await partialWrites()).toEqual([]);
  });

  it('refuses a file over 20 MB and stores nothing', async () => {
    const before = await storedKeys();
    const rows = (await fileRows(apps.incomplete)).length;
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024 - 8, 0x20)]);
    expect(big.length).toBe(20 * 1024 * 1024 + 1);
    const res = await server.call(
      uploadRequest({
        applicationId: apps.incomplete,
        type: 'formE',
        bytes: big,
        partFileName: 'big.pdf',
        token: tokens.lawyer!,
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'fileTooLarge', fields: { file: 'fileTooLarge' } });
    expect(await storedKeys()).toEqual(before);
    expect(await fileRows(apps.incomplete)).toHaveLength(rows);
    expect(await partialWrites()).toEqual([]);
  });

  it('accepts a file of exactly 20 MB', async () => {
    const exact = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024 - 9, 0x20)]);
    const res = await server.call(
      uploadRequest({
        applicationId: apps.providerAccepted,
        type: 'secci',
        bytes: exact,
        partFileName: 'secci.pdf',
        token: tokens.admin!,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().size).toBe(20 * 1024 * 1024);
  });

  it.each([
    ['../escape.pdf', 'a path'],
    ['folder\\name.pdf', 'a Windows path'],
    ['notes.txt', 'another extension'],
    ['bad\u0001name.pdf', 'a control character'],
    ['.pdf', 'no name'],
    [`${'a'.repeat(252)}.pdf`, 'over 255 characters'],
    ['evil\u202Efdp.exe.pdf', 'a direction override'],
  ])('refuses the file name %j (%s)', async (fileName) => {
    const before = await storedKeys();
    const res = await server.call(
      uploadRequest({ applicationId: apps.incomplete, type: 'formE', bytes: pdf, fileName, token: tokens.lawyer! }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'fileName', fields: { fileName: 'fileName' } });
    expect(await storedKeys()).toEqual(before);
  });

  it('needs applicationId, type and the file', async () => {
    const noFile = multipart([
      { name: 'applicationId', value: String(apps.incomplete) },
      { name: 'type', value: 'formE' },
    ]);
    let res = await server.call({ method: 'POST', url: '/api/applications/file/upload', token: tokens.lawyer, ...noFile });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'validation', fields: { file: 'required' } });

    res = await server.call(uploadRequest({ applicationId: 'abc', type: 'letter', bytes: pdf, token: tokens.lawyer! }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'validation', fields: { applicationId: 'invalid', type: 'invalid' } });

    res = await server.call({ method: 'POST', url: '/api/applications/file/upload', token: tokens.lawyer, payload: {} });
    expect(res.statusCode).toBe(400);
  });

  it('reads fields sent after the file too', async () => {
    const body = multipart([
      { name: 'file', value: pdf, fileName: 'late-fields.pdf' },
      { name: 'applicationId', value: String(apps.incomplete) },
      { name: 'type', value: 'formE' },
    ]);
    const res = await server.call({ method: 'POST', url: '/api/applications/file/upload', token: tokens.lawyer, ...body });
    expect(res.statusCode, res.body).toBe(201);
    // … and still removes the bytes when the checks made after them refuse.
    const before = await storedKeys();
    const refused = multipart([
      { name: 'file', value: pdf, fileName: 'late-fields.pdf' },
      { name: 'applicationId', value: String(apps.submitted) },
      { name: 'type', value: 'formE' },
    ]);
    const res2 = await server.call({ method: 'POST', url: '/api/applications/file/upload', token: tokens.lawyer, ...refused });
    expect(res2.statusCode).toBe(409);
    expect(await storedKeys()).toEqual(before);
  });

  it('allows 10 Form E documents and refuses the 11th with tooManyFiles', async () => {
    for (let i = 1; i <= 10; i++) {
      const res = await server.call(
        uploadRequest({
          applicationId: apps.created,
          type: 'formE',
          bytes: pdf,
          partFileName: `form-e-${i}.pdf`,
          token: tokens.lawyer!,
        }),
      );
      expect(res.statusCode, `upload ${i}: ${res.body}`).toBe(201);
    }
    const before = await storedKeys();
    const res = await server.call(
      uploadRequest({
        applicationId: apps.created,
        type: 'formE',
        bytes: pdf,
        partFileName: 'form-e-11.pdf',
        token: tokens.lawyer!,
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'tooManyFiles', fields: { file: 'tooManyFiles' } });
    expect(await storedKeys()).toEqual(before);
  });

  it('allows 20 files per application and refuses the 21st', async () => {
    for (let i = 1; i <= 20; i++) {
      const res = await server.call(
        uploadRequest({
          applicationId: apps.submitted,
          type: i % 2 ? 'secci' : 'loanAgreement',
          bytes: pdf,
          partFileName: `doc-${i}.pdf`,
          token: tokens.admin!,
        }),
      );
      expect(res.statusCode, `upload ${i}: ${res.body}`).toBe(201);
    }
    const res = await server.call(
      uploadRequest({ applicationId: apps.submitted, type: 'termsAndConditions', bytes: pdf, token: tokens.admin! }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('tooManyFiles');
  });

  it('answers 404 for another lawyer’s application and a missing one, storing nothing', async () => {
    const before = await storedKeys();
    for (const applicationId of [apps.incomplete, 999999]) {
      const res = await server.call(uploadRequest({ applicationId, type: 'formE', bytes: pdf, token: tokens.other! }));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'notFound' });
    }
    expect(await storedKeys()).toEqual(before);
  });

  it('lets the client upload Form E to their own application while it is editable', async () => {
    await setStatus(server, apps.customer, 'created');
    try {
      const res = await server.call(
        uploadRequest({ applicationId: apps.customer, type: 'formE', bytes: pdf, token: tokens.customer! }),
      );
      expect(res.statusCode, res.body).toBe(201);
      // Other types are the provider's.
      const other = await server.call(
        uploadRequest({ applicationId: apps.customer, type: 'secci', bytes: pdf, token: tokens.customer! }),
      );
      expect(other.statusCode).toBe(403);
      // Someone else's application does not exist for the client.
      const foreign = await server.call(
        uploadRequest({ applicationId: apps.incomplete, type: 'formE', bytes: pdf, token: tokens.customer! }),
      );
      expect(foreign.statusCode).toBe(404);
    } finally {
      await setStatus(server, apps.customer, 'customerAccepted');
    }
  });

  it('follows the status rules: 409 notEditable outside the role’s statuses, 403 for the firm', async () => {
    const cases: [keyof typeof tokens, number, string, number][] = [
      ['lawyer', apps.submitted, 'formE', 409],
      ['customer', apps.customer, 'formE', 409],
      ['admin', apps.incomplete, 'formE', 409],
      ['admin', apps.rejected, 'secci', 409],
      ['root', apps.customer, 'secci', 409],
      ['firm', apps.incomplete, 'formE', 403],
      ['admin', apps.esignPrepared, 'solicitorLetter', 409],
      ['root', apps.providerAccepted, 'instructionsToSolicitorsLetter', 201],
    ];
    for (const [role, applicationId, type, status] of cases) {
      const res = await server.call(uploadRequest({ applicationId, type, bytes: pdf, token: tokens[role]! }));
      expect(res.statusCode, `${role} ${type} on ${applicationId}: ${res.body}`).toBe(status);
      if (status === 409) expect(res.json()).toEqual({ error: 'notEditable' });
    }
  });

  it('never leaves bytes without a row: a failing insert removes the stored file', async () => {
    await server.rows(
      sql`create or replace function refuse_file_insert() returns trigger language plpgsql as $$ begin raise exception 'refused for the test'; end $$`,
    );
    await server.rows(
      sql`create trigger refuse_file_insert before insert on files for each row execute function refuse_file_insert()`,
    );
    try {
      const before = await storedKeys();
      const rows = (await fileRows(apps.incomplete)).length;
      const res = await server.call(
        uploadRequest({ applicationId: apps.incomplete, type: 'formE', bytes: pdf, token: tokens.lawyer! }),
      );
      expect(res.statusCode).toBe(500);
      expect(await storedKeys()).toEqual(before);
      expect(await fileRows(apps.incomplete)).toHaveLength(rows);
    } finally {
      await server.rows(sql`drop trigger refuse_file_insert on files`);
    }
  });

  it('answers a replay with the same Idempotency-Key with the first record, storing once', async () => {
    const key = 'upload-3f6c1e0a-1b2c-4d5e-8f90-123456789abc';
    const headers = { 'idempotency-key': key };
    const first = await server.call(
      uploadRequest({
        applicationId: apps.incomplete,
        type: 'formE',
        bytes: pdf,
        partFileName: 'replayed.pdf',
        token: tokens.lawyer!,
        headers,
      }),
    );
    expect(first.statusCode, first.body).toBe(201);
    const before = await storedKeys();
    const replay = await server.call(
      uploadRequest({
        applicationId: apps.incomplete,
        type: 'formE',
        bytes: pdf,
        partFileName: 'replayed.pdf',
        token: tokens.lawyer!,
        headers,
      }),
    );
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(first.json());
    expect(await storedKeys()).toEqual(before);
  });
});

describe('POST /applications/file/delete', () => {
  it('soft-deletes the row, removes the bytes, records an audit event; a second delete is 404', async () => {
    const up = await server.call(
      uploadRequest({
        applicationId: apps.incomplete,
        type: 'formE',
        bytes: pdf,
        partFileName: 'to-delete.pdf',
        token: tokens.lawyer!,
      }),
    );
    const record = up.json();
    const link = (await server.call({ method: 'GET', url: record.url, token: tokens.lawyer })).json();

    const res = await server.call({
      method: 'POST',
      url: '/api/applications/file/delete',
      token: tokens.lawyer,
      payload: { fileKey: record.key },
    });
    expect(res.statusCode, res.body).toBe(204);
    const [row] = await server.rows<{ deleted_at: string | null }>(sql`select deleted_at from files where id = ${record.id}`);
    expect(row!.deleted_at).not.toBeNull();
    expect(await storedKeys()).not.toContain(record.key);
    const audit = await server.rows(
      sql`select 1 from audit_events where action = 'fileDeleted' and entity_id = ${String(apps.incomplete)}`,
    );
    expect(audit).toHaveLength(1);

    const docs = (
      await server.call({ method: 'GET', url: `/api/applications/${apps.incomplete}/docs`, token: tokens.lawyer })
    ).json();
    expect(docs.documents.flatMap((d: { files: { id: number }[] }) => d.files.map((f) => f.id))).not.toContain(record.id);
    expect((await fetchLink(server, link.url)).statusCode).toBe(404);
    expect((await server.call({ method: 'GET', url: record.url, token: tokens.lawyer })).statusCode).toBe(404);

    const again = await server.call({
      method: 'POST',
      url: '/api/applications/file/delete',
      token: tokens.lawyer,
      payload: { fileKey: record.key },
    });
    expect(again.statusCode).toBe(404);
  });

  it('is scoped and follows the status rules', async () => {
    const up = (
      await server.call(uploadRequest({ applicationId: apps.incomplete, type: 'formE', bytes: pdf, token: tokens.lawyer! }))
    ).json();
    const other = await server.call({
      method: 'POST',
      url: '/api/applications/file/delete',
      token: tokens.other,
      payload: { fileKey: up.key },
    });
    expect(other.statusCode).toBe(404);
    const unknown = await server.call({
      method: 'POST',
      url: '/api/applications/file/delete',
      token: tokens.lawyer,
      payload: { fileKey: 'ab/not-a-key.pdf' },
    });
    expect(unknown.statusCode).toBe(404);
    const admin = await server.call({
      method: 'POST',
      url: '/api/applications/file/delete',
      token: tokens.admin,
      payload: { fileKey: up.key },
    });
    expect(admin.statusCode).toBe(409);
    expect(await storedKeys()).toContain(up.key);
  });
});

describe('GET /applications/{id}/docs and downloads', () => {
  it('lists every document type for staff and hides the two staff-only types from others', async () => {
    await server.call(
      uploadRequest({
        applicationId: apps.providerAccepted,
        type: 'solicitorLetter',
        bytes: pdf,
        partFileName: 'certificate.pdf',
        token: tokens.admin!,
      }),
    );
    const staff = (
      await server.call({ method: 'GET', url: `/api/applications/${apps.providerAccepted}/docs`, token: tokens.admin })
    ).json();
    expect(staff.documents.map((d: { type: string }) => d.type)).toEqual([
      'formE',
      'secci',
      'loanAgreement',
      'assignmentAgreement',
      'termsAndConditions',
      'preContractExplanations',
      'instructionsToSolicitorsLetter',
      'solicitorLetter',
    ]);
    const letter = staff.documents.find((d: { type: string }) => d.type === 'solicitorLetter');
    expect(letter.state).toBe('received');
    expect(letter.files[0].fileName).toBe('certificate.pdf');

    for (const role of ['lawyer', 'firm'] as const) {
      const res = await server.call({
        method: 'GET',
        url: `/api/applications/${apps.providerAccepted}/docs`,
        token: tokens[role],
      });
      expect(res.statusCode).toBe(200);
      const types = res.json().documents.map((d: { type: string }) => d.type);
      expect(types).toEqual([
        'formE',
        'secci',
        'loanAgreement',
        'assignmentAgreement',
        'termsAndConditions',
        'preContractExplanations',
      ]);
      const hidden = await server.call({
        method: 'GET',
        url: `/api/applications/${apps.providerAccepted}/docs/solicitorLetter/download?fileId=${letter.files[0].id}`,
        token: tokens[role],
      });
      expect(hidden.statusCode).toBe(404);
    }
    const client = await server.call({ method: 'GET', url: `/api/applications/${apps.customer}/docs`, token: tokens.customer });
    expect(client.statusCode).toBe(200);
    expect(client.json().documents).toHaveLength(6);
    expect(
      (await server.call({ method: 'GET', url: `/api/applications/${apps.incomplete}/docs`, token: tokens.customer })).statusCode,
    ).toBe(404);
    expect(
      (await server.call({ method: 'GET', url: `/api/applications/${apps.incomplete}/docs`, token: tokens.other })).statusCode,
    ).toBe(404);
  });

  it('gives the latest file of a type without fileId, and 404 for a type with no files', async () => {
    const docs = (
      await server.call({ method: 'GET', url: `/api/applications/${apps.created}/docs`, token: tokens.lawyer })
    ).json();
    const formE = docs.documents.find((d: { type: string }) => d.type === 'formE');
    const latest = formE.files[formE.files.length - 1];
    const link = await server.call({
      method: 'GET',
      url: `/api/applications/${apps.created}/docs/formE/download`,
      token: tokens.lawyer,
    });
    expect(link.statusCode).toBe(200);
    expect(link.json().fileName).toBe(latest.fileName);
    const none = await server.call({
      method: 'GET',
      url: `/api/applications/${apps.created}/docs/secci/download`,
      token: tokens.lawyer,
    });
    expect(none.statusCode).toBe(404);
    const wrongType = await server.call({
      method: 'GET',
      url: `/api/applications/${apps.created}/docs/secci/download?fileId=${latest.id}`,
      token: tokens.lawyer,
    });
    expect(wrongType.statusCode).toBe(404);
  });

  it('links work in another server process, expire, and unknown tokens are 404', async () => {
    const link = (
      await server.call({ method: 'GET', url: `/api/applications/${apps.created}/docs/formE/download`, token: tokens.lawyer })
    ).json();
    expect(new Date(link.expiresAt).getTime() - Date.now()).toBeGreaterThan(4 * 60 * 1000);
    expect(new Date(link.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000 + 5000);
    const sibling = await server.sibling();
    expect((await fetchLink(sibling, link.url)).statusCode).toBe(200);
    expect((await fetchLink(server, link.url)).statusCode).toBe(200);

    const token = link.url.split('/').pop();
    await server.rows(
      sql`update download_tokens set expires_at = now() - interval '1 second' where created_at > now() - interval '1 minute' and file_name = ${link.fileName}`,
    );
    const expired = await fetchLink(server, link.url);
    expect(expired.statusCode).toBe(404);
    expect(expired.json()).toEqual({ error: 'notFound' });
    expect(token).toHaveLength(43);
    for (const bad of ['A'.repeat(43), 'short', '..%2F..%2Fetc'])
      expect((await fetchLink(server, `/api/files/${bad}`)).statusCode).toBe(404);
  });

  it('a link dies with its account: a deleted or disabled account’s open links are 404', async () => {
    const email = 'doomed.lawyer@example.test';
    const doomed = await otherLawyer(server, email);
    const pdfLink = (
      await server.call({
        method: 'GET',
        url: `/api/pdf-generator/for-application-json/${apps.incomplete}`,
        token: tokens.lawyer,
      })
    ).json();
    expect((await fetchLink(server, pdfLink.url)).statusCode).toBe(200);
    // A link of another firm's lawyer, to the PDF of their own application.
    const own = await server.call({
      method: 'POST',
      url: '/api/applications/create',
      token: doomed,
      payload: { journeyData: { personal: personal('doomed.client@example.test') } },
    });
    expect(own.statusCode, own.body).toBe(201);
    const link = (
      await server.call({ method: 'GET', url: `/api/pdf-generator/for-application-json/${own.json().id}`, token: doomed })
    ).json();
    expect((await fetchLink(server, link.url)).statusCode).toBe(200);
    await server.rows(sql`update users set status = 'disabled' where email = ${email}`);
    expect((await fetchLink(server, link.url)).statusCode).toBe(404);
    await server.rows(sql`update users set status = 'active', deleted_at = now() where email = ${email}`);
    expect((await fetchLink(server, link.url)).statusCode).toBe(404);
    // The first lawyer's link is untouched.
    expect((await fetchLink(server, pdfLink.url)).statusCode).toBe(200);
  });
});

describe('Content-Disposition', () => {
  it('keeps names safe: ASCII fallback, exact name encoded, no header breaks', () => {
    expect(contentDisposition('Form E.pdf')).toBe(`attachment; filename="Form E.pdf"; filename*=UTF-8''Form%20E.pdf`);
    expect(contentDisposition('Ünïcode "quoted".pdf', 'inline')).toBe(
      `inline; filename="_n_code _quoted_.pdf"; filename*=UTF-8''%C3%9Cn%C3%AFcode%20%22quoted%22.pdf`,
    );
    expect(contentDisposition('a\r\nSet-Cookie: x.pdf')).not.toMatch(/[\r\n]/);
  });
});
