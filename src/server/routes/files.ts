import type { FastifyRequest } from 'fastify';
import { contentDisposition } from '../files/content-disposition';
import { readUpload } from '../files/multipart';
import { applicationPdfLink } from '../services/files/application-pdf-link';
import { deleteFile } from '../services/files/delete-file';
import { documentDownloadLink } from '../services/files/document-download-link';
import { listDocuments } from '../services/files/list-documents';
import { openDownload } from '../services/files/open-download';
import { updateDocumentState } from '../services/files/update-document-state';
import { uploadFile } from '../services/files/upload-file';
import type { Download } from '../services/files/download';
import { AppError } from '../errors/app-error';
import { downloadErrorPage } from '../html/download-error-page';
import { publicContext, serviceContext, type Handlers } from './handler';

/** A browser opening the URL as a page (a window or tab), not a script or an API client fetching it. */
const isPageNavigation = (request: FastifyRequest) =>
  request.headers['sec-fetch-dest'] === 'document' || /\btext\/html\b/.test(request.headers.accept ?? '');

/** Uploads, documents by type, short-lived downloads and the application PDF. */
export const fileHandlers: Handlers = {
  uploadFile: async (request, reply, ctx) => {
    const service = serviceContext(request, ctx);
    // The multipart stream is HTTP's part: the service sees only the parts it reads.
    const record = await uploadFile(service, {
      receive: (options) => readUpload(request, { storage: service.storage, ...options }),
    });
    reply.code(201);
    return record;
  },

  deleteFile: async (request, _reply, ctx) => deleteFile(serviceContext(request, ctx), { fileKey: request.body.fileKey }),

  listApplicationDocuments: async (request, _reply, ctx) =>
    listDocuments(serviceContext(request, ctx), { applicationId: request.params.id }),

  updateDocumentState: async (request, _reply, ctx) => updateDocumentState(serviceContext(request, ctx), request.body),

  downloadDocument: async (request, _reply, ctx) =>
    documentDownloadLink(serviceContext(request, ctx), {
      applicationId: request.params.id,
      type: request.params.type,
      fileId: request.query.fileId,
    }),

  getFile: async (request, reply, ctx) => {
    reply.header('Cache-Control', 'no-store');
    let download: Download;
    try {
      download = await openDownload(publicContext(request, ctx), { token: request.params.token });
    } catch (error) {
      // A window the portal opened on the link gets a page in words; an API caller keeps the JSON.
      if (!(error instanceof AppError) || !isPageNavigation(request)) throw error;
      reply.code(error.statusCode).type('text/html; charset=utf-8');
      return downloadErrorPage(error.code, { productName: ctx.config.brand.productName, portalUrl: ctx.config.publicUrl });
    }
    reply.type(download.contentType).header('Content-Disposition', contentDisposition(download.fileName, download.disposition));
    if (download.size !== undefined) reply.header('Content-Length', String(download.size));
    return reply.send(download.body);
  },

  createApplicationPdf: async (request, _reply, ctx) =>
    applicationPdfLink(serviceContext(request, ctx), {
      applicationId: request.params.id,
      variant: request.query.variant ?? 'full',
    }),
};
