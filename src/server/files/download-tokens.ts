import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { downloadTokens, sessions, users } from '../db/schema';
import type { SessionUser } from '../auth/sessions';

/** How long a download link works (docs/decisions.md: long enough to open, too short to share). */
const DOWNLOAD_LINK_TTL_MS = 5 * 60 * 1000;
/** Spent links are kept this long after they expire, then removed when new ones are made. */
const KEEP_EXPIRED_MS = 24 * 60 * 60 * 1000;

export type DownloadGrant =
  | { kind: 'file'; applicationId: number; fileId: number }
  | { kind: 'applicationPdf'; applicationId: number; variant: 'full' | 'summary'; audience: 'lawyer' | 'customer' }
  /** A PDF of one stored email of the application (services/mail): made as the link is fetched. */
  | { kind: 'emailPdf'; applicationId: number; emailId: number }
  /** The staff's database extract (services/dump): made as the link is fetched, for no one application. */
  | { kind: 'databaseExtract' };

export interface DownloadLink {
  url: string;
  fileName: string;
  expiresAt: string;
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A short-lived link to GET /files/{token}. The random token is the capability; only its hash is
 * stored, with what it grants, so every server process on the database can answer it and a
 * leaked database row cannot be turned back into a link. It belongs to the session that asked for
 * it: signing out, or a password change (which ends every session), spends it.
 */
export async function issueDownloadLink(
  db: Database,
  owner: Pick<SessionUser, 'id' | 'sessionId'>,
  grant: DownloadGrant,
  fileName: string,
): Promise<DownloadLink> {
  if (owner.sessionId === undefined) throw new Error('a download link is made only for a signed-in session');
  const token = randomBytes(32).toString('base64url');
  // The database's clock decides expiry, so processes with drifting clocks agree.
  await db.delete(downloadTokens).where(lt(downloadTokens.expiresAt, sql`now() - ${KEEP_EXPIRED_MS} * interval '1 millisecond'`));
  const [row] = await db
    .insert(downloadTokens)
    .values({
      tokenHash: hashToken(token),
      kind: grant.kind,
      applicationId: grant.kind === 'databaseExtract' ? null : grant.applicationId,
      fileId: grant.kind === 'file' ? grant.fileId : null,
      emailId: grant.kind === 'emailPdf' ? grant.emailId : null,
      variant: grant.kind === 'applicationPdf' ? grant.variant : null,
      audience: grant.kind === 'applicationPdf' ? grant.audience : null,
      fileName,
      userId: owner.id,
      sessionId: owner.sessionId,
      expiresAt: sql`now() + ${DOWNLOAD_LINK_TTL_MS} * interval '1 millisecond'`,
    })
    .returning({ expiresAt: downloadTokens.expiresAt });
  return { url: `/api/files/${token}`, fileName, expiresAt: new Date(row!.expiresAt).toISOString() };
}

/**
 * What a token grants while it is valid; undefined for an unknown, malformed or expired token, and
 * for one whose account has since been deleted or disabled (deleting an account spends its open
 * links: decisions, 'Deleting'), or whose session has ended (signed out, or every session ended
 * by a password change).
 */
export async function redeemDownloadToken(
  db: Database,
  token: string,
): Promise<(DownloadGrant & { fileName: string; userId: number }) | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const [found] = await db
    .select({ token: downloadTokens })
    .from(downloadTokens)
    .innerJoin(users, eq(users.id, downloadTokens.userId))
    .innerJoin(sessions, eq(sessions.id, downloadTokens.sessionId))
    .where(
      and(
        eq(downloadTokens.tokenHash, hashToken(token)),
        gt(downloadTokens.expiresAt, sql`now()`),
        isNull(users.deletedAt),
        eq(users.status, 'active'),
        isNull(sessions.revokedAt),
      ),
    )
    .limit(1);
  const row = found?.token;
  if (!row) return undefined;
  if (row.kind === 'databaseExtract') return { kind: 'databaseExtract', fileName: row.fileName, userId: row.userId };
  if (row.applicationId === null) return undefined;
  if (row.kind === 'file' && row.fileId !== null)
    return { kind: 'file', applicationId: row.applicationId, fileId: row.fileId, fileName: row.fileName, userId: row.userId };
  if (row.kind === 'emailPdf' && row.emailId !== null)
    return {
      kind: 'emailPdf',
      applicationId: row.applicationId,
      emailId: row.emailId,
      fileName: row.fileName,
      userId: row.userId,
    };
  if (row.kind === 'applicationPdf') {
    return {
      kind: 'applicationPdf',
      applicationId: row.applicationId,
      variant: row.variant === 'summary' ? 'summary' : 'full',
      audience: row.audience === 'customer' ? 'customer' : 'lawyer',
      fileName: row.fileName,
      userId: row.userId,
    };
  }
  return undefined;
}
