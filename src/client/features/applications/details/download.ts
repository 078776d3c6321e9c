import { api } from '../../../api/client';
import { callApi } from '../../../api/failure';
import type { DocumentType } from '../../../../shared/rules/document-types';

/** Opens a short-lived link as a download (decision 002): the browser saves the file. */
export function download(url: string, fileName?: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName ?? '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** A stored document of the application, fetched as a short-lived link and saved; false when it failed. */
export async function downloadDocument(applicationId: number, type: DocumentType, fileId: number, fileName: string) {
  const outcome = await callApi(() =>
    api.GET('/applications/{id}/docs/{type}/download', {
      params: { path: { id: applicationId, type }, query: { fileId } },
    }),
  );
  if (!outcome.ok || !outcome.data?.url) return false;
  download(outcome.data.url, outcome.data.fileName ?? fileName);
  return true;
}
