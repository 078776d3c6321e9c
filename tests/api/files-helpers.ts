import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { hashPassword } from '../../src/server/auth/passwords';
import { firms, lawyers, users } from '../../src/server/db/schema';
import type { TestServer } from './harness';

/** A real, small PDF made with pdf-lib. */
export async function smallPdf(text = 'Form E'): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 200]);
  page.drawText(text, { x: 20, y: 150, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

export interface Part {
  name: string;
  value: string | Buffer;
  fileName?: string;
  contentType?: string;
}

/** A multipart/form-data body, parts in the given order. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.fileName !== undefined)
      head += `; filename="${part.fileName}"\r\nContent-Type: ${part.contentType ?? 'application/pdf'}`;
    chunks.push(
      Buffer.from(`${head}\r\n\r\n`),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The upload call as the client sends it: fields first, then the file. */
export function uploadRequest(options: {
  applicationId: number | string;
  type: string;
  bytes: Buffer;
  fileName?: string;
  partFileName?: string;
  token: string;
  headers?: Record<string, string>;
}) {
  const parts: Part[] = [
    { name: 'applicationId', value: String(options.applicationId) },
    { name: 'type', value: options.type },
  ];
  if (options.fileName !== undefined) parts.push({ name: 'fileName', value: options.fileName });
  parts.push({ name: 'file', value: options.bytes, fileName: options.partFileName ?? 'form-e.pdf' });
  const body = multipart(parts);
  return {
    method: 'POST' as const,
    url: '/api/applications/file/upload',
    token: options.token,
    payload: body.payload,
    headers: { ...body.headers, ...options.headers },
  };
}

/** The demo application of the client with this email. */
export async function applicationIdOf(server: TestServer, clientEmail: string): Promise<number> {
  const rows = await server.rows<{ id: number }>(
    sql`select a.id from applications a join clients c on c.id = a.client_id join users u on u.id = c.user_id where u.email = ${clientEmail}`,
  );
  if (!rows[0]) throw new Error(`no application for ${clientEmail}`);
  return rows[0].id;
}

export async function setStatus(server: TestServer, applicationId: number, status: string): Promise<void> {
  await server.rows(sql`update applications set status = ${status} where id = ${applicationId}`);
}

/** A lawyer of another firm, who must not see the demo firm's applications. */
export async function otherLawyer(server: TestServer, email = 'other.lawyer@demo.test'): Promise<string> {
  const passwordHash = await hashPassword('Other-pass-1');
  const [firm] = await server.db.insert(firms).values({ name: 'Elsewhere LLP' }).returning();
  const [user] = await server.db
    .insert(users)
    .values({ email, role: 'lawyer', firstName: 'Owen', surname: 'Price', firmId: firm!.id, passwordHash, status: 'active' })
    .returning();
  await server.db.insert(lawyers).values({ userId: user!.id, firmId: firm!.id });
  return server.signIn(email, 'Other-pass-1');
}

/** Fetches a DownloadLink's url as a browser window would: no bearer token. */
export function fetchLink(server: Pick<TestServer, 'call'>, url: string) {
  return server.call({ method: 'GET', url });
}
