import { useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { useAtomValue, useStore } from 'jotai';
import { signInSchema } from '../../../shared/schemas/account';
import { errorMessages } from '../../../shared/rules/error-codes';
import { api, isApiErrorBody } from '../../api/client';
import { paths, safeNext } from '../../app/paths';
import { PublicPage } from '../../ui/public-page';
import { TextField } from '../../ui/field';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useForm, useSubmit } from '../../ui/use-form';
import { sessionAtom, startSession } from './session';

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

  const { run, busy } = useSubmit(async () => {
    form.markSubmitted();
    setMessage(null);
    if (!form.output) return;
    try {
      const { data, error, response } = await api.POST('/auth', { body: form.output });
      if (data) {
        // The session change re-renders this page, which then leaves for the page asked for.
        startSession(store, data.token, data.user);
        return;
      }
      if (response.status === 401) {
        form.setServerCodes({ login: 'empty', password: 'invalidCredentials' });
      } else if (response.status === 429) {
        setMessage(errorMessages.tooManyAttempts);
      } else if (isApiErrorBody(error) && error.fields) {
        form.setServerCodes(error.fields);
      } else {
        setMessage(errorMessages.unhandled);
      }
    } catch (failure) {
      console.error(failure);
      setMessage(errorMessages.offline);
    }
  });

  if (session.status === 'signedIn') return <Navigate to={safeNext(params.get('next'))} replace />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };

  return (
    <PublicPage title="Sign in">
      <form className="form" noValidate onSubmit={onSubmit}>
        <FormMessage message={message} />
        <TextField
          label="Email"
          type="email"
          inputMode="email"
          autoComplete="username"
          spellCheck={false}
          {...form.field('login')}
        />
        <TextField label="Password" type="password" autoComplete="current-password" {...form.field('password')} />
        <p className="form__aside">
          <Link to={paths.reset.url()}>Forgot your password?</Link>
        </p>
        <div className="form__actions">
          <Button type="submit" busy={busy}>
            sign in
          </Button>
        </div>
      </form>
    </PublicPage>
  );
}
