import { AppError, type FieldCodes } from './app-error';

/** SQL states the services and the error handler act on (PostgreSQL's error codes appendix). */
const UNIQUE_VIOLATION = '23505';

/**
 * SQL states of values the database refuses (characters it cannot store, numbers out of range,
 * bad dates): bad input that got past the contract, answered as such rather than as a fault.
 */
const BAD_VALUE_SQL_STATE = /^22(P05|021|003|007|008|P02)$/;

/** The SQL state of a database error; drivers and the ORM wrap it in `cause`. */
export function sqlStateOf(error: unknown): string | undefined {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === UNIQUE_VIOLATION;
}

/** A value the database refused as bad input (see BAD_VALUE_SQL_STATE). */
export function isBadValue(error: unknown): boolean {
  return BAD_VALUE_SQL_STATE.test(sqlStateOf(error) ?? '');
}

/**
 * Runs a write whose uniqueness a check before it cannot promise under concurrency: when a parallel
 * request took the value between the check and the insert, the unique index refuses it, and the
 * caller gets the same 400 the check gives (the field codes passed), not a 500.
 */
export async function refuseDuplicate<T>(fields: FieldCodes, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.validation(fields);
    throw error;
  }
}
