import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * What a URL may not carry into a log: download links (/api/files/<token>), invitation and reset
 * links (/sign-up-<kind>/<uuid>, /reset/validate/<uuid>) and any query parameter that names a
 * token. Anything else shaped like a secret (a UUID, a long random base64url run) is hidden too,
 * so a link added later does not leak before someone remembers this list.
 */
const SECRET_PATH = /^(\/api\/files\/|\/sign-up-[a-z]+\/|\/reset\/validate\/)[^/?#]+/i;
const SECRET_QUERY = /([?&](?:token|uuid|key|code)=)[^&#]*/gi;
const SECRET_SHAPED = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9_-]{32,}/gi;

const REDACTED = '[redacted]';

/** The URL as it may be logged: every token replaced by [redacted]. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH, `$1${REDACTED}`).replace(SECRET_QUERY, `$1${REDACTED}`).replace(SECRET_SHAPED, REDACTED);
}

/** Fastify's request serializer, with the URL redacted (the same fields otherwise). */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export interface LogDestination {
  write(line: string): void;
}

/**
 * The server's logger: requests at info in production (warn otherwise), each request's URL without
 * its tokens, in every mode. A destination replaces standard output (tests read what is logged).
 */
export function loggerOptions(production: boolean, destination?: LogDestination): FastifyServerOptions['logger'] {
  return {
    level: production ? 'info' : 'warn',
    serializers: { req: serializeRequest as never },
    ...(destination ? { stream: destination } : {}),
  };
}
