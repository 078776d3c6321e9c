import type { PublicContext } from '../context';
import { AppError } from '../../http/app-error';
import { findLiveToken } from './account-record';

/** Whose reset link this is (400 `invalidToken` for a used, expired or unknown one, or another login). */
export async function validatePasswordReset(
  { db }: PublicContext,
  body: { token: string; login?: string },
): Promise<{ login: string }> {
  const row = await findLiveToken(db, 'reset', body.token);
  if (body.login !== undefined && body.login.trim().toLowerCase() !== row.email) throw new AppError(400, 'invalidToken');
  return { login: row.email };
}
