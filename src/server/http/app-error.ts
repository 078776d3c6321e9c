/**
 * The one way a service says no. The code crosses the wire; the client maps it to the spec's words.
 * `fields` is the field → code map of a 400.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 429 | 501 | 503,
    readonly code: string,
    readonly extra: { fields?: Record<string, string>; retryAfter?: number; current?: unknown } = {},
  ) {
    super(code);
    this.name = 'AppError';
  }

  static validation(fields: Record<string, string>): AppError {
    return new AppError(400, 'validation', { fields });
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
