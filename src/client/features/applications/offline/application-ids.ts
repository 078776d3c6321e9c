import { draftKey, parseDraftKey } from '../../../offline/draft-keys';
import { newLocalId, useResolvedId } from '../../../offline/local-ids';

/**
 * The application's names on the device: an application created offline is `local-<uuid>` until
 * the server has created it; a file chosen offline is `upload-<uuid>` until it is uploaded. The
 * drafts of a journey step are keyed `application:<id>:<step>` (offline/draft-keys.ts).
 */

const LOCAL_APPLICATION_PREFIX = 'local-';
const LOCAL_UPLOAD_PREFIX = 'upload-';
const APPLICATION_DRAFT_KIND = 'application';
export const SUBMIT_DRAFT_KIND = 'application-submit';
/** The outbox scope of file uploads and deletes. */
export const FILES_SCOPE = 'files';

export function isLocalApplicationId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith(LOCAL_APPLICATION_PREFIX);
}

export function isLocalUploadId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith(LOCAL_UPLOAD_PREFIX);
}

/** A new application's id on the device until the server has created it. */
export function newLocalApplicationId(): string {
  return newLocalId(LOCAL_APPLICATION_PREFIX);
}

export function newLocalUploadId(): string {
  return newLocalId(LOCAL_UPLOAD_PREFIX);
}

/** The draft key of one journey step of one application (a server id or a `local-<uuid>`). */
export function stepDraftKey(applicationId: number | string, step: string): string {
  return draftKey(APPLICATION_DRAFT_KIND, applicationId, step);
}

/**
 * Where a refused submit of an application is kept until it is read (its summary says why, and it
 * counts in 'Needs your attention'), like a refused decision: the submit has no form of its own
 * (docs/decisions.md 433).
 */
export function submitRefusalKey(applicationId: number | string): string {
  return draftKey(SUBMIT_DRAFT_KIND, applicationId);
}

/** The application and step a draft key names, or null for a draft of anything else. */
export function parseStepDraftKey(key: string): { applicationId: string; step: string } | null {
  const { kind, parts } = parseDraftKey(key);
  if (kind !== APPLICATION_DRAFT_KIND || parts.length !== 2) return null;
  return { applicationId: parts[0]!, step: parts[1]! };
}

/**
 * The id to use for an application: a `local-<uuid>` whose create has gone through becomes the
 * server's id (the wizard then moves its URL there); anything else is returned as it is.
 */
export function useResolvedApplicationId(id: number | string | null): number | string | null {
  return useResolvedId(id, isLocalApplicationId);
}
