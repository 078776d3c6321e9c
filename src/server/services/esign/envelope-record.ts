import { Readable } from 'node:stream';
import { and, asc, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { envelopeDocuments, envelopeEvents, envelopes, files, loans } from '../../db/schema';
import { sha256Hex } from '../../esign/builtin';
import type { FileStorage } from '../../files/storage';
import { AppError } from '../../errors/app-error';
import type { ServiceContext } from '../context';
import { findApplication, type ApplicationRow } from '../applications/find-application';
import { loanMayTakeVariation } from '../../policies/loans';
import { contractDocumentTitle, type DocumentType } from '../../../shared/rules/document-types';
import type { LoanStatus } from '../../../shared/rules/statuses';
import { applicationTransitions, transitionAllowedFrom } from '../../../shared/rules/transitions';

export type EnvelopeRow = typeof envelopes.$inferSelect;
export type EnvelopeEventType =
  'created' | 'notified' | 'opened' | 'codeSent' | 'codeFailed' | 'signed' | 'voided' | 'declined' | 'timestamped';

/** The application's contract envelope that may still be signed (created or notified), if any. */
export async function findOpenEnvelope(
  db: Database,
  applicationId: number,
  options: { forUpdate?: boolean } = {},
): Promise<EnvelopeRow | undefined> {
  const query = db
    .select()
    .from(envelopes)
    .where(
      and(
        eq(envelopes.applicationId, applicationId),
        eq(envelopes.kind, 'contract'),
        sql`${envelopes.status} in ('created', 'notified')`,
      ),
    )
    .orderBy(desc(envelopes.createdAt))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/** The application's signed contract envelope (the one that created its loan), if any; variations are the loan's. */
export async function findSignedEnvelope(db: Database, applicationId: number): Promise<EnvelopeRow | undefined> {
  const [row] = await db
    .select()
    .from(envelopes)
    .where(and(eq(envelopes.applicationId, applicationId), eq(envelopes.kind, 'contract'), eq(envelopes.status, 'signed')))
    .orderBy(desc(envelopes.signedAt))
    .limit(1);
  return row;
}

/**
 * The envelope a signing link opens, with its application, for the application's own client: 404
 * for a malformed token or another person's link (nobody learns whose it is), 410
 * `signingLinkExpired` for one that is unknown (a replaced link's hash is gone), expired, or whose
 * envelope was voided. A signed envelope is answered whatever the link's age: its page says it is
 * signed (decision 286).
 */
export async function findEnvelopeByToken(
  { db, actor }: Pick<ServiceContext, 'db' | 'actor'>,
  token: string,
  options: { forUpdate?: boolean } = {},
): Promise<{ envelope: EnvelopeRow; application: ApplicationRow }> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw AppError.notFound();
  const query = db
    .select()
    .from(envelopes)
    .where(eq(envelopes.linkTokenHash, sha256Hex(token)))
    .limit(1);
  const [envelope] = options.forUpdate ? await query.for('update') : await query;
  if (!envelope) throw new AppError(410, 'signingLinkExpired');
  const application = await findApplication(db, actor, envelope.applicationId).catch(() => undefined);
  if (!application || actor.role !== 'customer' || application.clientId !== actor.customerId) throw AppError.notFound();
  if (envelope.status === 'signed') return { envelope, application };
  if (envelope.status === 'voided' || !envelope.linkExpiresAt || !(await linkStillValid(db, envelope.id)))
    throw new AppError(410, 'signingLinkExpired');
  return { envelope, application };
}

/**
 * Whether an envelope not signed yet may be signed now: the contract set while the application's
 * status allows signing; a variation while its loan may take one (open or blocked) and still waits
 * for this very figure (docs/decisions.md, 507, 511).
 */
export async function envelopeSignable(db: Database, envelope: EnvelopeRow, application: { status: string }): Promise<boolean> {
  if (envelope.kind !== 'variation') return transitionAllowedFrom(applicationTransitions, application.status, 'customerAccepted');
  if (envelope.loanId === null) return false;
  const [loan] = await db
    .select({ status: loans.status, pendingAmountPence: loans.pendingAmountPence })
    .from(loans)
    .where(eq(loans.id, envelope.loanId));
  return (
    loan !== undefined && loanMayTakeVariation(loan.status as LoanStatus) && loan.pendingAmountPence === envelope.amountPence
  );
}

/** Where the signer goes back to: their application's details, or for a variation, their loan. */
export function envelopeHomePath(envelope: EnvelopeRow): string {
  return envelope.kind === 'variation' && envelope.loanId !== null
    ? `/loans/${envelope.loanId}`
    : `/applications/${envelope.applicationId}/details`;
}

/** The database's clock decides expiry, so processes with drifting clocks agree. */
async function linkStillValid(db: Database, envelopeId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: envelopes.id })
    .from(envelopes)
    .where(and(eq(envelopes.id, envelopeId), gt(envelopes.linkExpiresAt, sql`now()`), ne(envelopes.status, 'voided')));
  return row !== undefined;
}

export async function recordEnvelopeEvent(
  db: Database,
  event: {
    envelopeId: string;
    type: EnvelopeEventType;
    actor?: Pick<SessionUser, 'id'> | null;
    origin?: ServiceContext['origin'];
    detail?: unknown;
  },
): Promise<void> {
  await db.insert(envelopeEvents).values({
    envelopeId: event.envelopeId,
    type: event.type,
    userId: event.actor?.id ?? null,
    address: event.origin?.address ?? null,
    device: event.origin?.device ?? null,
    detail: event.detail ?? null,
  });
}

/** The envelope's documents in order, with their original and signed files (a variation's titled as one). */
export async function envelopeDocumentsOf(db: Database, envelopeId: string) {
  const rows = await db
    .select({ document: envelopeDocuments, file: files, kind: envelopes.kind })
    .from(envelopeDocuments)
    .innerJoin(files, eq(files.id, envelopeDocuments.fileId))
    .innerJoin(envelopes, eq(envelopes.id, envelopeDocuments.envelopeId))
    .where(eq(envelopeDocuments.envelopeId, envelopeId))
    .orderBy(asc(envelopeDocuments.position));
  return rows.map(({ document, file, kind }) => ({
    ...document,
    file,
    title: contractDocumentTitle(document.type as DocumentType, kind === 'variation'),
  }));
}

/** A stored file's bytes, or undefined when they are gone. */
export async function readStoredBytes(storage: FileStorage, key: string): Promise<Buffer | undefined> {
  const stream: Readable | undefined = await storage.open(key);
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** An email address shown partly hidden on the signing page: 'c***@example.com'. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
