import type { components } from '../../shared/api/schema';
import type { ErrorCode, FieldCode } from '../../shared/rules/error-codes';

/** Field name → the code the client shows its words for. */
export type FieldCodes = Record<string, FieldCode>;

/**
 * The one way a service says no. The code crosses the wire; the client maps it to the spec's words.
 * `fields` is the field → code map of a 400.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 410 | 429 | 501 | 503,
    readonly code: ErrorCode,
    readonly extra: {
      fields?: FieldCodes;
      retryAfter?: number;
      current?: unknown;
      /** What the refusal is about, for the screen to say it in the user's terms. */
      details?: components['schemas']['ErrorDetails'];
    } = {},
  ) {
    super(code);
    this.name = 'AppError';
  }

  static validation(fields: FieldCodes): AppError {
    return new AppError(400, 'validation', { fields });
  }
  /**
   * 400 with the field codes a shared rule produced (a valibot schema's messages, validateStep):
   * the form ran the same rule and shows the same codes' words, so they are not listed again here.
   */
  static ruleFailed(fields: Record<string, string>): AppError {
    return new AppError(400, 'validation', { fields: fields as FieldCodes });
  }
  static unauthorized(): AppError {
    return new AppError(401, 'unauthorized');
  }
  static forbidden(): AppError {
    return new AppError(403, 'forbidden');
  }
  static notFound(): AppError {
    return new AppError(404, 'notFound');
  }
}
