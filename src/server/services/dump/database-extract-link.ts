import { issueDownloadLink, type DownloadLink } from '../../files/download-tokens';
import { assertCan } from '../../policies/assert-can';
import { can } from '../../policies/dump';
import type { ServiceContext } from '../context';

/** The name the download is saved under: when the link was made, in UTC, safe in every file system. */
export function extractFileName(at: Date): string {
  return `database-extract-${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z.zip`;
}

/**
 * GET /common/dump: a short-lived link to the extract, tied to this session like every download
 * link; the ZIP is made as the link is opened (open-database-extract.ts), so asking costs nothing.
 */
export async function databaseExtractLink({ db, actor }: ServiceContext, _input: Record<string, never>): Promise<DownloadLink> {
  assertCan(can(actor, 'extract'));
  return issueDownloadLink(db, actor, { kind: 'databaseExtract' }, extractFileName(new Date()));
}
