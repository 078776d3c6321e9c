import { and, eq, isNull } from 'drizzle-orm';
import { files } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { redeemDownloadToken } from '../../files/download-tokens';
import { renderApplicationPdf } from '../../pdf/application-pdf';
import type { PublicContext } from '../context';
import type { Download } from './download';
import { openDatabaseExtract } from '../dump/open-database-extract';
import { renderEmailPdf } from '../mail/render-email-pdf';

/** GET /files/{token}: the file a valid link grants; 404 otherwise. The token is the credential. */
export async function openDownload(ctx: PublicContext, input: { token: string }): Promise<Download> {
  const { db, storage, config } = ctx;
  const grant = await redeemDownloadToken(db, input.token);
  if (!grant) throw AppError.notFound();
  if (grant.kind === 'databaseExtract') return openDatabaseExtract(ctx, { userId: grant.userId, fileName: grant.fileName });
  if (grant.kind === 'file') {
    const [row] = await db
      .select()
      .from(files)
      .where(and(eq(files.id, grant.fileId), eq(files.applicationId, grant.applicationId), isNull(files.deletedAt)))
      .limit(1);
    const stream = row ? await storage.open(row.key) : undefined;
    if (!row || !stream) throw AppError.notFound();
    return { body: stream, contentType: 'application/pdf', size: row.size, fileName: row.fileName, disposition: 'attachment' };
  }
  if (grant.kind === 'emailPdf') {
    const pdf = await renderEmailPdf(db, config, grant);
    if (!pdf) throw AppError.notFound();
    return {
      body: Buffer.from(pdf),
      contentType: 'application/pdf',
      size: pdf.length,
      fileName: grant.fileName,
      disposition: 'inline',
    };
  }
  const pdf = await renderApplicationPdf(db, {
    applicationId: grant.applicationId,
    variant: grant.variant,
    audience: grant.audience,
    productName: config.brand.productName,
    provider: config.brand,
    timeoutMs: config.timeouts.pdfTimeoutMs,
  });
  if (!pdf) throw AppError.notFound();
  return {
    body: Buffer.from(pdf),
    contentType: 'application/pdf',
    size: pdf.length,
    fileName: grant.fileName,
    disposition: 'inline',
  };
}
