import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/connection';
import { files } from '../db/schema';
import type { SessionUser } from '../auth/sessions';
import { AppError } from '../http/app-error';
import { contentDisposition } from '../files/content-disposition';
import { issueDownloadLink, redeemDownloadToken, type DownloadLink } from '../files/download-tokens';
import { readUpload, UploadRefused } from '../files/multipart';
import { newFileKey, type FileStorage } from '../files/storage';
import {
  canSeeDocumentType,
  documentTypes,
  fileChangeRefusal,
  findApplicationInScope,
  visibleDocumentTypes,
  type DocumentType,
  type ScopedApplication,
} from '../policies/files';
import { recordAudit } from './audit';
import { applicationPdfFileName, renderApplicationPdf } from '../pdf/application-pdf';
import type { components } from '../../shared/api/schema';
import { FORM_E_MAX_FILES, UPLOAD_MAX_BYTES, UPLOAD_MAX_FILES } from '../../shared/rules/limits';

type FileRecord = components['schemas']['FileRecord'];
type ApplicationDocument = components['schemas']['ApplicationDocument'];
type User = Pick<SessionUser, 'id' | 'role' | 'firmId' | 'lawyerId' | 'customerId'>;
type FileRow = typeof files.$inferSelect;

/** The wire form of a stored file; `url` is the authenticated download call for it. */
export function toFileRecord(row: FileRow): FileRecord {
  return {
    id: row.id,
    name: row.name,
    url: `/api/applications/${row.applicationId}/docs/${row.type}/download?fileId=${row.id}`,
    key: row.key,
    fileName: row.fileName,
    type: row.type as DocumentType,
    size: row.size,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/**
 * The application's files the user may see (for Application.files): not deleted, and without the
 * staff-only types for other roles. The caller has already checked the application is in scope.
 */
export async function listApplicationFiles(db: Database, user: Pick<SessionUser, 'role'>, applicationId: number): Promise<FileRecord[]> {
  const rows = await db
    .select()
    .from(files)
    .where(and(eq(files.applicationId, applicationId), isNull(files.deletedAt), inArray(files.type, [...visibleDocumentTypes(user)])))
    .orderBy(asc(files.createdAt), asc(files.id));
  return rows.map(toFileRecord);
}

const UNSAFE_NAME = /[/\\\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A file name we keep and later send in Content-Disposition: a plain name ending .pdf. */
export function acceptableFileName(name: string): boolean {
  return name.length <= 255 && name.trim() === name && !UNSAFE_NAME.test(name) && /^.+\.pdf$/i.test(name) && !/^\.+pdf$/i.test(name);
}

function parseApplicationId(value: string | undefined): number | undefined {
  if (value === undefined || !/^[1-9]\d{0,9}$/.test(value)) return undefined;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : undefined;
}

function checkUploadFields(fields: Record<string, string>): { applicationId: number; type: DocumentType; fileName: string | undefined } {
  const problems: Record<string, string> = {};
  for (const name of Object.keys(fields)) if (!['applicationId', 'type', 'fileName'].includes(name)) problems[name] = 'unknownField';
  const applicationId = parseApplicationId(fields.applicationId);
  if (applicationId === undefined) problems.applicationId = fields.applicationId === undefined ? 'required' : 'invalid';
  const type = fields.type as DocumentType;
  if (!(documentTypes as readonly string[]).includes(type)) problems.type = fields.type === undefined ? 'required' : 'invalid';
  if (Object.keys(problems).length > 0) throw AppError.validation(problems);
  return { applicationId: applicationId!, type, fileName: fields.fileName };
}

function refuse(refusal: 'forbidden' | 'notEditable'): AppError {
  return refusal === 'forbidden' ? AppError.forbidden() : new AppError(409, 'notEditable');
}

/** Access, status and count checks of a change to an application's files (run again under the row lock). */
async function checkFileChange(db: Database, user: User, applicationId: number, type: string, options: { lock?: boolean; adding?: boolean }): Promise<ScopedApplication> {
  const application = await findApplicationInScope(db, user, applicationId, { lock: options.lock });
  if (!application) throw AppError.notFound();
  const refusal = fileChangeRefusal(user, application.status, type);
  if (refusal) throw refuse(refusal);
  if (options.adding) {
    const [counts] = await db
      .select({ total: sql<number>`count(*)::int`, sameType: sql<number>`(count(*) filter (where ${files.type} = ${type}))::int` })
      .from(files)
      .where(and(eq(files.applicationId, applicationId), isNull(files.deletedAt)));
    if ((counts?.total ?? 0) >= UPLOAD_MAX_FILES || (type === 'formE' && (counts?.sameType ?? 0) >= FORM_E_MAX_FILES)) throw new UploadRefused('tooManyFiles');
  }
  return application;
}

/**
 * POST /applications/file/upload. The file is streamed into storage (checked as a PDF by its
 * bytes, at most 20 MB); then, under a lock on the application, the checks are made again and the
 * row and its audit event are written. Whatever fails after the bytes are stored removes them, so
 * there is never a row without bytes or bytes without a row.
 */
export async function uploadFile(db: Database, storage: FileStorage, user: User, request: FastifyRequest): Promise<FileRecord> {
  const key = newFileKey();
  const nameOf = (fields: Record<string, string>, partFileName: string) => (fields.fileName !== undefined ? fields.fileName : partFileName);
  const checkName = (name: string) => {
    if (!acceptableFileName(name)) throw new UploadRefused('fileName', 'fileName');
  };
  const { fields, file } = await readUpload(request, {
    storage,
    key,
    maxBytes: UPLOAD_MAX_BYTES,
    // Fields sent before the file let us refuse before a byte is stored.
    beforeFile: async (early, partFileName) => {
      if (early.applicationId === undefined || early.type === undefined) return;
      const { applicationId, type } = checkUploadFields(early);
      checkName(nameOf(early, partFileName));
      await checkFileChange(db, user, applicationId, type, { adding: true });
    },
  });
  try {
    if (!file) throw AppError.validation({ file: 'required' });
    const { applicationId, type } = checkUploadFields(fields);
    const fileName = nameOf(fields, file.partFileName);
    checkName(fileName);
    const row = await db.transaction(async (tx) => {
      await checkFileChange(tx, user, applicationId, type, { lock: true, adding: true });
      const [inserted] = await tx
        .insert(files)
        .values({ applicationId, key, name: fileName, fileName, type, contentType: 'application/pdf', size: file.size, uploadedBy: user.id })
        .returning();
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'application',
        entityId: applicationId,
        action: 'fileUploaded',
        to: { fileId: inserted!.id, type, fileName, size: file.size },
      });
      return inserted!;
    });
    return toFileRecord(row);
  } catch (error) {
    if (file) await storage.remove(key).catch(() => undefined);
    throw error;
  }
}

/**
 * POST /applications/file/delete. The row is kept with deleted_at (the history names it); the
 * bytes are removed once the change has committed (docs/decisions.md).
 */
export async function deleteFile(db: Database, storage: FileStorage, user: User, fileKey: string, log?: (msg: string, err: unknown) => void): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(files).where(and(eq(files.key, fileKey), isNull(files.deletedAt))).limit(1);
    if (!row || row.applicationId === null || !canSeeDocumentType(user, row.type)) throw AppError.notFound();
    await checkFileChange(tx, user, row.applicationId, row.type, { lock: true });
    const [updated] = await tx
      .update(files)
      .set({ deletedAt: sql`now()` })
      .where(and(eq(files.id, row.id), isNull(files.deletedAt)))
      .returning({ id: files.id });
    if (!updated) throw AppError.notFound();
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'application',
      entityId: row.applicationId,
      action: 'fileDeleted',
      from: { fileId: row.id, type: row.type, fileName: row.fileName, size: row.size },
    });
    return row;
  });
  await storage.remove(removed.key).catch((err) => log?.('removing a deleted file’s bytes failed', err));
}

/** GET /applications/{id}/docs: one entry per document type the user may see, in the spec's order. */
export async function listDocuments(db: Database, user: User, applicationId: number): Promise<{ documents: ApplicationDocument[] }> {
  const application = await findApplicationInScope(db, user, applicationId);
  if (!application) throw AppError.notFound();
  const records = await listApplicationFiles(db, user, applicationId);
  return {
    documents: visibleDocumentTypes(user).map((type) => {
      const own = records.filter((r) => r.type === type);
      // Review states are not stored yet (POST /applications/docs/state): a type with files is received.
      return { type, state: own.length > 0 ? 'received' : 'pending', files: own };
    }),
  };
}

/** GET /applications/{id}/docs/{type}/download: a short-lived link to one file (the latest when no fileId). */
export async function documentDownloadLink(db: Database, user: User, applicationId: number, type: string, fileId: number | undefined): Promise<DownloadLink> {
  const application = await findApplicationInScope(db, user, applicationId);
  if (!application || !canSeeDocumentType(user, type)) throw AppError.notFound();
  const conditions = [eq(files.applicationId, applicationId), eq(files.type, type), isNull(files.deletedAt)];
  if (fileId !== undefined) conditions.push(eq(files.id, fileId));
  const [row] = await db.select().from(files).where(and(...conditions)).orderBy(desc(files.createdAt), desc(files.id)).limit(1);
  if (!row) throw AppError.notFound();
  return issueDownloadLink(db, user.id, { kind: 'file', applicationId, fileId: row.id }, row.fileName);
}

/** GET /pdf-generator/for-application-json/{id}: a link; the PDF is made when the link is opened. */
export async function applicationPdfLink(db: Database, user: User, applicationId: number, variant: 'full' | 'summary'): Promise<DownloadLink> {
  const application = await findApplicationInScope(db, user, applicationId);
  if (!application) throw AppError.notFound();
  const audience = user.role === 'customer' ? 'customer' : 'lawyer';
  return issueDownloadLink(db, user.id, { kind: 'applicationPdf', applicationId, variant, audience }, applicationPdfFileName(applicationId, variant));
}

/** GET /files/{token}: the file a valid link grants, named in Content-Disposition; 404 otherwise. */
export async function sendDownload(db: Database, storage: FileStorage, token: string, reply: FastifyReply, productName: string, pdfTimeoutMs?: number): Promise<FastifyReply> {
  const grant = await redeemDownloadToken(db, token);
  if (!grant) throw AppError.notFound();
  reply.header('Cache-Control', 'no-store');
  if (grant.kind === 'file') {
    const [row] = await db
      .select()
      .from(files)
      .where(and(eq(files.id, grant.fileId), eq(files.applicationId, grant.applicationId), isNull(files.deletedAt)))
      .limit(1);
    const stream = row ? await storage.open(row.key) : undefined;
    if (!row || !stream) throw AppError.notFound();
    // Uploaded content is offered as a download, never rendered on our origin.
    return reply
      .type('application/pdf')
      .header('Content-Length', String(row.size))
      .header('Content-Disposition', contentDisposition(row.fileName, 'attachment'))
      .send(stream);
  }
  const pdf = await renderApplicationPdf(db, { applicationId: grant.applicationId, variant: grant.variant, audience: grant.audience, productName, timeoutMs: pdfTimeoutMs });
  if (!pdf) throw AppError.notFound();
  // Made by the server from the application: opened in the browser's viewer (spec: "in a new window").
  return reply
    .type('application/pdf')
    .header('Content-Length', String(pdf.length))
    .header('Content-Disposition', contentDisposition(grant.fileName, 'inline'))
    .send(Buffer.from(pdf));
}
