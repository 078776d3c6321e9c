import { AppError } from '../http/app-error';
import { sqlStateOf } from '../http/error-handler';

/** The database's unique-violation state: a value taken by a request that raced this one. */
export const UNIQUE_VIOLATION = '23505';

/**
 * Runs a write whose uniqueness a check before it cannot promise under concurrency: when a parallel
 * request took the value between the check and the insert, the unique index refuses it, and the
 * caller gets the same 400 the check gives (the field codes passed), not a 500.
 */
export async function refuseDuplicate<T>(fields: Record<string, string>, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlStateOf(error) === UNIQUE_VIOLATION) throw AppError.validation(fields);
    throw error;
  }
}
