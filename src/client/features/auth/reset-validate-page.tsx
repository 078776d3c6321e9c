import { passwordUpdateSchema } from '../../../shared/schemas/account';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { SetPasswordForm } from './set-password-form';

async function validateResetLink(token: string): Promise<string | null> {
  const { data } = await api.POST('/users/reset/validate', { body: { token } });
  return data?.login ?? null;
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
