import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { Transform, finished, type TransformCallback } from 'node:stream';
import { AppError } from '../errors/app-error';
import { markBodyUnreadable } from './unreadable-bodies';
import { PDF_MAGIC } from '../../shared/rules/accepted-file';
import type { FileStorage } from './storage';

const PDF_MAGIC_BYTES = Buffer.from(PDF_MAGIC, 'latin1');

/**
 * Lets the app read multipart bodies. The plugin only adds the parser: handlers read the parts
 * themselves, streaming the file with the limits given per call.
 */
export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, {
    throwFileSizeLimit: false,
    limits: { fieldNameSize: 100, fieldSize: 1024, fields: 10, files: 1, parts: 12, headerPairs: 100 },
  });
}

export interface ReceivedFile {
  /** The name the browser gave the file part. */
  partFileName: string;
  size: number;
}

export interface UploadParts {
  fields: Record<string, string>;
  file: ReceivedFile | undefined;
}

export class UploadRefused extends AppError {
  constructor(code: 'fileTooLarge' | 'fileType' | 'fileName' | 'tooManyFiles', field: 'file' | 'fileName' = 'file') {
    super(400, code, { fields: { [field]: code } });
  }
}

/**
 * Reads a multipart upload: value fields into `fields`, the one file part streamed into storage
 * under `key` while it arrives (never held whole in memory). The bytes must start with %PDF- and
 * be at most maxBytes; otherwise nothing is stored and the rest of the body is drained, so the
 * browser reads the 400 rather than a reset connection. `beforeFile` runs when the file part
 * starts, with the fields sent before it (clients send fields first), so a caller without access
 * is refused before any byte is stored.
 */
export async function readUpload(
  request: FastifyRequest,
  options: {
    storage: FileStorage;
    key: string;
    maxBytes: number;
    beforeFile: (fields: Record<string, string>, partFileName: string) => Promise<void>;
  },
): Promise<UploadParts> {
  if (!request.isMultipart()) throw AppError.validation({ file: 'required' });
  const fields: Record<string, string> = {};
  let file: ReceivedFile | undefined;
  let parts: AsyncIterableIterator<Multipart>;
  try {
    parts = request.parts({ limits: { fileSize: options.maxBytes } });
  } catch {
    throw AppError.validation({ file: 'invalid' });
  }
  // Whatever fails after the file part was stored (a second file part, a bad field after it)
  // takes its bytes with it: nothing is kept that no row will name.
  const discardStored = async () => {
    if (file) await options.storage.remove(options.key).catch(() => undefined);
  };
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw AppError.validation({ [part.fieldname]: 'tooLong' });
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        throw AppError.validation({ [part.fieldname]: 'unknownField' });
      }
      try {
        await options.beforeFile({ ...fields }, part.filename);
      } catch (error) {
        part.file.resume();
        throw error;
      }
      file = { partFileName: part.filename, size: await storeChecked(part, options) };
    }
  } catch (error) {
    await discardStored();
    if (error instanceof AppError) throw error;
    const refusal = multipartError(error);
    if (refusal.code === 'badUpload') markBodyUnreadable(request);
    throw refusal;
  }
  return { fields, file };
}

/**
 * The storage could not keep the bytes (a full disk, a quota, a failing device): a fault of the
 * server, never of the file, so the client keeps the upload and tries again later.
 */
function storageFailure(error: unknown): AppError {
  return Object.assign(new AppError(503, 'storageUnavailable'), { cause: error });
}

function multipartError(error: unknown): AppError {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new UploadRefused('fileTooLarge');
  if (code === 'FST_FILES_LIMIT') return AppError.validation({ file: 'tooMany' });
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return AppError.validation({ _: 'tooMany' });
  // A multipart body that cannot be read (no closing boundary, a part cut short, broken part
  // headers): bad input, not a fault, with its own code (docs/decisions.md 540).
  return new AppError(400, 'badUpload');
}

/** Streams the part into storage through a check of its size and its first bytes. */
async function storeChecked(
  part: MultipartFile,
  options: { storage: FileStorage; key: string; maxBytes: number },
): Promise<number> {
  let size = 0;
  let head = Buffer.alloc(0);
  let refused: UploadRefused | undefined;
  const checker = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      size += chunk.length;
      if (head.length < PDF_MAGIC_BYTES.length) {
        head = Buffer.concat([head, chunk.subarray(0, PDF_MAGIC_BYTES.length - head.length)]);
        if (!PDF_MAGIC_BYTES.subarray(0, head.length).equals(head)) return callback((refused = new UploadRefused('fileType')));
      }
      if (size > options.maxBytes) return callback((refused = new UploadRefused('fileTooLarge')));
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      if (head.length < PDF_MAGIC_BYTES.length) return callback((refused = new UploadRefused('fileType')));
      callback();
    },
  });
  // The parser stops at the limit and marks the part truncated: refuse before the write completes.
  part.file.on('limit', () => {
    refused ??= new UploadRefused('fileTooLarge');
    checker.destroy(refused);
  });
  // The storage may attach its own listeners a tick later (after creating folders): a refusal in
  // between is kept in `refused`, never an unhandled stream error.
  checker.on('error', () => undefined);
  // A body that stops arriving (the client went, a timeout cut it) or ends without its closing
  // boundary fails the part: the failure must reach the storage's write too, or it would wait for
  // bytes forever with its file open. The parser may have failed the part already, while
  // `beforeFile` was reading the database (a small body arrives whole at once): `finished` reports
  // a stream destroyed earlier, where an 'error' listener added now would never hear of it
  // (docs/decisions.md 540).
  let cut: unknown;
  finished(part.file, { writable: false }, (error) => {
    if (!error) return;
    cut = error;
    checker.destroy(refused ?? error);
  });
  part.file.pipe(checker);
  try {
    await options.storage.put(options.key, checker);
  } catch (error) {
    part.file.unpipe(checker);
    part.file.resume();
    throw refused ?? cut ?? storageFailure(error);
  }
  if (refused || part.file.truncated) {
    await options.storage.remove(options.key);
    throw refused ?? new UploadRefused('fileTooLarge');
  }
  return size;
}
