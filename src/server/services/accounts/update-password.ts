import type { PublicContext } from '../context';
import { passwordUpdateSchema } from '../../../shared/schemas/account';
import { countLinkCall } from '../../auth/link-call-limit';
import { type SignedIn, parse, setPasswordByLink, metaOf } from './account-record';

/** Sets a new password through a reset link, and signs the account in. */
export async function updatePassword(
  { db, origin }: PublicContext,
  body: { token: string; login: string; password: string },
): Promise<SignedIn> {
  await countLinkCall(db, { token: body.token, address: origin.address });
  const meta = metaOf(origin);
  const { login, password } = parse(passwordUpdateSchema, body);
  return setPasswordByLink(db, 'reset', { token: body.token, login, password }, meta);
}
