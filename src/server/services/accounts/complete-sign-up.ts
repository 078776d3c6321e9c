import type { PublicContext } from '../context';
import { signUpSchema } from '../../../shared/schemas/account';
import { countLinkCall } from '../../auth/link-call-limit';
import { type SignedIn, parse, setPasswordByLink, metaOf } from './account-record';

/** Sets the password of an invited account through its invitation link, and signs it in. */
export async function completeSignUp(
  { db, origin }: PublicContext,
  body: { login: string; password: string; uuid: string },
): Promise<SignedIn> {
  await countLinkCall(db, { token: body.uuid, address: origin.address });
  const meta = metaOf(origin);
  const { login, password } = parse(signUpSchema, body);
  return setPasswordByLink(db, 'invitation', { token: body.uuid, login, password }, meta);
}
