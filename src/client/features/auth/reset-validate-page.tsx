import { passwordUpdateSchema } from '../../../shared/schemas/account';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { SetPasswordForm } from './set-password-form';
import { tokenAnswer, type TokenAnswer } from './use-token-check';

async function validateResetLink(token: string): Promise<TokenAnswer> {
  const { data, response } = await api.POST('/users/reset/validate', { body: { token } });
  return tokenAnswer(response.status, data?.login);
}

function updatePassword(input: { token: string; login: string; password: string }) {
  return api.POST('/users/reset/update', { body: input });
}

/**
 * /reset/validate/:uuid: page title 'Reset password', heading 'Update password'. The link's token
 * is checked on entry; the user sets a new password, is signed in and taken to /applications.
 */
export default function ResetValidatePage() {
  return (
    <SetPasswordForm
      title="Update password"
      documentTitle="Reset password"
      submitLabel="update"
      checkingLabel="Checking your link"
      schema={passwordUpdateSchema}
      checkToken={validateResetLink}
      complete={updatePassword}
      next={paths.applications.url()}
      invalidLink={{ to: paths.reset.url(), label: 'reset password' }}
    />
  );
}
