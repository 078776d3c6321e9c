import { signUpSchema } from '../../../shared/schemas/account';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { SetPasswordForm, type NewSession } from './set-password-form';
import type { ApiAnswer } from '../../api/failure';
import { tokenAnswer, type TokenAnswer } from './use-token-check';

async function validateInvitation(uuid: string): Promise<TokenAnswer> {
  const { data, response } = await api.POST('/users/sign-up/validate', { body: { uuid } });
  return tokenAnswer(response.status, data?.data[0]?.login);
}

async function completeSignUp(input: { token: string; login: string; password: string }): Promise<ApiAnswer<NewSession>> {
  const { data, error, response } = await api.POST('/users/sign-up/complete', {
    body: { login: input.login, password: input.password, uuid: input.token },
  });
  return { data: data ? { token: data.userToken, user: data.user } : undefined, error, response };
}

/**
 * /sign-up/:uuid, 'Join platform': the invitation is checked on entry, its email is shown and
 * cannot be changed, the user chooses a password. Then the session starts and /get-started follows.
 */
export default function SignUpPage() {
  return (
    <SetPasswordForm
      title="Join platform"
      submitLabel="sign up"
      checkingLabel="Checking your invitation"
      schema={signUpSchema}
      checkToken={validateInvitation}
      complete={completeSignUp}
      next={paths.getStarted.url()}
      invalidLink={{ to: paths.signIn.url(), label: 'back to sign in' }}
    />
  );
}
