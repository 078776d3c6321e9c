import { contractDocumentTypes } from '../../../../shared/rules/document-types';
import type { Application } from '../applications-api';

/**
 * The record holds contract documents the caller may read (the server leaves out what they may
 * not): what 'view documents…' buttons need before they are offered (docs/decisions.md 446).
 */
export function hasContractDocuments(application: Pick<Application, 'files'>): boolean {
  return application.files.some((file) => (contractDocumentTypes as readonly string[]).includes(file.type));
}
