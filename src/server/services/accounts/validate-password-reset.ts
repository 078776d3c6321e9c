import type { PublicContext } from '../context';
import { AppError } from '../../errors/app-error';
import { countLinkCall } from '../../auth/link-call-limit';
import { findLiveToken } from './account-record';

/** Whose reset link this is (400 `invalidToken` for a used, expired or unknown one, or another login; 429 beyond the link limits). */
export async function validatePasswordReset(
  { db, origin }: PublicContext,
  body: { token: string; login?: string },
): Promise<{ login: string }> {
  await countLinkCall(db, { token: body.token, address: origin.address });
  const row = await findLiveToken(db, 'reset', body.token);
  if (body.login !== undefined && body.login.trim().toLowerCase() !== row.email) throw new AppError(400, 'invalidToken');
  return { login: row.email };
}
