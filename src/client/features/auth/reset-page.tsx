import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { resetRequestSchema } from '../../../shared/schemas/account';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { PublicPage } from '../../ui/public-page';
import { EmailField } from '../../ui/field';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useForm, useSubmit } from '../../ui/use-form';
import { accountCall } from './account-call';

/**
 * /reset: asks for a reset link. The server answers the same whether or not the account exists,
 * so this page cannot be used to find out who has one.
 */
export default function ResetPage() {
  const navigate = useNavigate();
  const form = useForm(resetRequestSchema, { login: '' });
  const [message, setMessage] = useState<string | null>(null);

  const { onSubmit, busy } = useSubmit(async () => {
    form.markSubmitted();
    setMessage(null);
    const output = form.output;
    if (!output) return;
    const result = await accountCall(() => api.POST('/users/reset', { body: output }), {
      setMessage,
      setServerCodes: form.setServerCodes,
    });
    if (!result.ok) return;
    form.markSaved();
    await navigate(paths.resetSucceeded.url());
  });

  return (
    <PublicPage title="Reset password">
      <form className="form" noValidate onSubmit={onSubmit}>
        <EmailField {...form.field('login')} />
        <div className="form__actions">
          <Button type="submit" busy={busy} disabled={form.hasErrors || busy}>
            reset password
          </Button>
        </div>
        <p className="form__aside">
          <Link to={paths.signIn.url()}>back to sign in</Link>
        </p>
        <FormMessage message={message} />
      </form>
    </PublicPage>
  );
}
