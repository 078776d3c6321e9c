import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { useAtomValue, useStore } from 'jotai';
import { signInSchema } from '../../../shared/schemas/account';
import { api } from '../../api/client';
import { paths, safeNext } from '../../routing/paths';
import { PublicPage } from '../../ui/public-page';
import { EmailField, TextField } from '../../ui/field';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useForm, useSubmit } from '../../ui/use-form';
import { accountCall } from './account-call';
import { sessionAtom, startSession } from '../../session/session';
import { signedOutNotice } from '../../session/signed-out-notice';
import './sign-in.css';

/**
 * /sign-in. On success the user returns to the page asked for (`?next=`), or / when none.
 * Kept light: it is the first screen of most visits (build budget, scripts/build-budget.ts).
 */
export default function SignInPage() {
  const store = useStore();
  const session = useAtomValue(sessionAtom);
  const [params] = useSearchParams();
  const form = useForm(signInSchema, { login: '', password: '' });
  const [message, setMessage] = useState<string | null>(null);

  const { onSubmit, busy } = useSubmit(async () => {
    form.markSubmitted();
    setMessage(null);
    const output = form.output;
    if (!output) return;
    const result = await accountCall(
      () => api.POST('/auth', { body: output }),
      { setMessage, setServerCodes: form.setServerCodes },
      (status) => {
        if (status !== 401) return false;
        // Spec section 8: the email is marked without a message, the password says why.
        form.setServerCodes({ login: 'empty', password: 'invalidCredentials' });
        return true;
      },
    );
    if (!result.ok) return;
    form.markSaved();
    // The session change re-renders this page, which then leaves for the page asked for.
    startSession(store, result.data.token, result.data.user);
  });

  if (session.status === 'signedIn') return <Navigate to={safeNext(params.get('next'))} replace />;
  const notice = session.status === 'signedOut' ? signedOutNotice(session.reason) : null;

  return (
    <PublicPage title="Sign in">
      {notice ? (
        <p className="sign-in-notice" role="status">
          {notice}
        </p>
      ) : null}
      <form className="form" noValidate onSubmit={onSubmit}>
        <EmailField {...form.field('login')} />
        <TextField label="Password" type="password" autoComplete="current-password" {...form.field('password')} />
        <p className="form__aside">
          <Link to={paths.reset.url()}>Forgot your password?</Link>
        </p>
        <div className="form__actions">
          <Button type="submit" busy={busy}>
            sign in
          </Button>
        </div>
        <FormMessage message={message} />
      </form>
    </PublicPage>
  );
}
