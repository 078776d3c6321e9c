import { ProviderRefused, ProviderUnavailable } from '../../esign/provider';
import { AppError } from '../../errors/app-error';
import type { ServiceContext } from '../context';
import type { ErrorCode } from '../../../shared/rules/error-codes';

/**
 * A remote provider's failure as the caller sees it (docs/decisions.md 529), logged for the
 * operator with DocuSign's own words: no answer (a timeout, a 5xx) is 503
 * `esignProviderUnavailable`, which the offline outbox sends again later; a refusal is 400 with the
 * caller's code (the spec's `envelopeFailed` when preparing). Nothing was written before either.
 */
export function providerFailure(
  ctx: Pick<ServiceContext, 'logError'>,
  error: unknown,
  what: string,
  refusedCode: ErrorCode,
): unknown {
  if (error instanceof ProviderUnavailable) {
    ctx.logError(`${what}: DocuSign did not answer`, error);
    return new AppError(503, 'esignProviderUnavailable');
  }
  if (error instanceof ProviderRefused) {
    ctx.logError(`${what}: DocuSign refused`, error);
    return new AppError(400, refusedCode);
  }
  return error;
}
