import { fileStorage } from '../files/storage';
import * as filesService from '../services/files';
import { caller, type Handlers } from './handler';

/** Uploads, documents by type, short-lived downloads and the application PDF. */
export const fileHandlers: Handlers = {
  uploadFile: async (request, reply, { db, config }) => {
    const record = await filesService.uploadFile(db, fileStorage(config.filesDir), caller(request).user, request);
    reply.code(201);
    return record;
  },

  deleteFile: async (request, _reply, { db, config }) => {
    await filesService.deleteFile(db, fileStorage(config.filesDir), caller(request).user, request.body.fileKey, (msg, err) => request.log.error({ err }, msg));
  },

  listApplicationDocuments: async (request, _reply, { db }) => filesService.listDocuments(db, caller(request).user, request.params.id),

  downloadDocument: async (request, _reply, { db }) =>
    filesService.documentDownloadLink(db, caller(request).user, request.params.id, request.params.type, request.query.fileId),

  getFile: async (request, reply, { db, config }) => filesService.sendDownload(db, fileStorage(config.filesDir), request.params.token, reply, config.brand.productName, config.timeouts.pdfTimeoutMs),

  createApplicationPdf: async (request, _reply, { db }) =>
    filesService.applicationPdfLink(db, caller(request).user, request.params.id, request.query.variant ?? 'full'),
};
