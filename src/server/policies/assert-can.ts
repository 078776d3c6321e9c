import { AppError } from '../errors/app-error';

/**
 * Turns a policy's `can` into the answer: 403 by default; 404 where the record must not even be
 * known to exist for this caller (docs/decisions.md: order of refusals).
 */
export function assertCan(allowed: boolean, refusal: 'forbidden' | 'notFound' = 'forbidden'): asserts allowed {
  if (!allowed) throw refusal === 'notFound' ? AppError.notFound() : AppError.forbidden();
}
