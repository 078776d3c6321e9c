import { Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's bytes as received, for the operations whose contract says x-raw-body. */
    rawBody?: Buffer;
  }
}

/**
 * A preParsing hook that passes the body through to the JSON parser unchanged (its size limit
 * still applies) and keeps a copy of the bytes on the request, so a signature over them can be
 * checked after parsing: a re-encoding of the parsed JSON would not be the bytes that were signed.
 */
export async function keepRawBody(request: FastifyRequest, _reply: FastifyReply, payload: Readable): Promise<Readable> {
  const chunks: Buffer[] = [];
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done(null, chunk);
    },
    flush(done) {
      request.rawBody = Buffer.concat(chunks);
      done();
    },
  });
  payload.on('error', (error) => tap.destroy(error));
  return payload.pipe(tap);
}
