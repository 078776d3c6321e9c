import { describe, expect, it, vi } from 'vitest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseClosing } from '../db/connection';
import { AppError } from '../errors/app-error';
import { errorHandler } from './error-handler';

function call(error: Error) {
  const log = { error: vi.fn() };
  const sent: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
  const reply = {
    header: (name: string, value: string) => ((sent.headers[name] = value), reply),
    code: (status: number) => ((sent.status = status), reply),
    send: (body: unknown) => ((sent.body = body), reply),
  };
  errorHandler(error as AppError, { log } as unknown as FastifyRequest, reply as unknown as FastifyReply);
  return { log, sent };
}

describe('errorHandler', () => {
  it('logs a 503 of ours (a full disk) at error level with its cause, and answers its code', () => {
    const cause = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    const { log, sent } = call(Object.assign(new AppError(503, 'storageUnavailable'), { cause }));
    expect(sent).toMatchObject({ status: 503, body: { error: 'storageUnavailable' } });
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]![0]).toMatchObject({ cause });
  });

  it('does not log the refusals that are about the request', () => {
    expect(call(AppError.validation({ file: 'fileType' })).log.error).not.toHaveBeenCalled();
    expect(call(new AppError(501, 'notImplemented')).log.error).not.toHaveBeenCalled();
  });

  it('answers a statement refused by a shutdown (drizzle wraps it) with 503 unavailable and a retry, not a logged 500', () => {
    const { log, sent } = call(new Error('Failed query: select 1', { cause: new DatabaseClosing() }));
    expect(sent).toEqual({ status: 503, body: { error: 'unavailable' }, headers: { 'Retry-After': '2', Connection: 'close' } });
    expect(log.error).not.toHaveBeenCalled();
  });
});
