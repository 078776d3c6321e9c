import type { PublicContext } from '../context';
import { signUpSchema } from '../../../shared/schemas/account';
import { type SignedIn, parse, setPasswordByLink, metaOf } from './account-record';

/** Sets the password of an invited account through its invitation link, and signs it in. */
export async function completeSignUp(
  { db, origin }: PublicContext,
  body: { login: string; password: string; uuid: string },
): Promise<SignedIn> {
  const meta = metaOf(origin);
  const { login, password } = parse(signUpSchema, body);
  return setPasswordByLink(db, 'invitation', { token: body.uuid, login, password }, meta);
}
