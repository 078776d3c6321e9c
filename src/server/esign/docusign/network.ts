import { ProviderUnavailable } from '../provider';

/** A signed copy is a few hundred kilobytes; anything near this is not one. */
export const MAX_ANSWER_BYTES = 50 * 1024 * 1024;

/**
 * One request to DocuSign, its whole answer read within `timeoutMs` (the signal covers the body
 * too): no answer, a connection refused, a body cut off or one over MAX_ANSWER_BYTES is
 * ProviderUnavailable, naming what was asked and never the credentials (docs/decisions.md 529).
 */
export async function exchange(
  what: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ status: number; contentType: string; body: Buffer }> {
  try {
    const response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    const declared = Number(response.headers.get('content-length'));
    if (declared > MAX_ANSWER_BYTES) {
      await response.body?.cancel();
      throw new Error(`an answer of ${declared} bytes`);
    }
    const body = Buffer.from(await response.arrayBuffer());
    if (body.length > MAX_ANSWER_BYTES) throw new Error(`an answer of ${body.length} bytes`);
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', body };
  } catch (error) {
    throw new ProviderUnavailable(`DocuSign did not answer ${what}: ${describe(error, timeoutMs)}`);
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs} ms`;
  if (error instanceof Error) return error.cause instanceof Error ? error.cause.message : error.message;
  return String(error);
}

/** A JSON answer's object, or an empty one when the body is not JSON. */
export function jsonOf(body: Buffer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
