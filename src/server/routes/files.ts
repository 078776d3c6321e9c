import { contentDisposition } from '../files/content-disposition';
import { readUpload } from '../files/multipart';
import { applicationPdfLink } from '../services/files/application-pdf-link';
import { deleteFile } from '../services/files/delete-file';
import { documentDownloadLink } from '../services/files/document-download-link';
import { listDocuments } from '../services/files/list-documents';
import { openDownload } from '../services/files/open-download';
import { updateDocumentState } from '../services/files/update-document-state';
import { uploadFile } from '../services/files/upload-file';
import { publicContext, serviceContext, type Handlers } from './handler';

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
    const download = await openDownload(publicContext(request, ctx), { token: request.params.token });
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
