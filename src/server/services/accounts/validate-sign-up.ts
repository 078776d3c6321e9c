import type { PublicContext } from '../context';
import { findLiveToken } from './account-record';

/** Whose invitation link this is (400 `invalidToken` for a used, expired or unknown one). */
export async function validateSignUp({ db }: PublicContext, { uuid }: { uuid: string }): Promise<{ login: string }> {
  const row = await findLiveToken(db, 'invitation', uuid);
  return { login: row.email };
}
