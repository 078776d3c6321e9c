import { describe, expect, it, vi } from 'vitest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error';
import { errorHandler } from './error-handler';

function call(error: AppError) {
  const log = { error: vi.fn() };
  const sent: { status?: number; body?: unknown } = {};
  const reply = {
    header: () => reply,
    code: (status: number) => ((sent.status = status), reply),
    send: (body: unknown) => ((sent.body = body), reply),
  };
  errorHandler(error, { log } as unknown as FastifyRequest, reply as unknown as FastifyReply);
  return { log, sent };
}

describe('errorHandler', () => {
  it('logs a 503 of ours (a full disk) at error level with its cause, and answers its code', () => {
    const cause = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    const { log, sent } = call(Object.assign(new AppError(503, 'storageUnavailable'), { cause }));
    expect(sent).toEqual({ status: 503, body: { error: 'storageUnavailable' } });
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]![0]).toMatchObject({ cause });
  });

  it('does not log the refusals that are about the request', () => {
    expect(call(AppError.validation({ file: 'fileType' })).log.error).not.toHaveBeenCalled();
    expect(call(new AppError(501, 'notImplemented')).log.error).not.toHaveBeenCalled();
  });
});
