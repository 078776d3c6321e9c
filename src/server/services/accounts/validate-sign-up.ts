import type { PublicContext } from '../context';
import { countLinkCall } from '../../auth/link-call-limit';
import { findLiveToken } from './account-record';

/** Whose invitation link this is (400 `invalidToken` for a used, expired or unknown one; 429 beyond the link limits). */
export async function validateSignUp({ db, origin }: PublicContext, { uuid }: { uuid: string }): Promise<{ login: string }> {
  await countLinkCall(db, { token: uuid, address: origin.address });
  const row = await findLiveToken(db, 'invitation', uuid);
  return { login: row.email };
}
