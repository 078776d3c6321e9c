import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useStore } from 'jotai';
import { signUpSchema } from '../../../shared/schemas/account';
import { errorMessages, PASSWORD_HINT } from '../../../shared/rules/error-codes';
import { api, isApiErrorBody } from '../../api/client';
import { paths } from '../../app/paths';
import { PublicPage } from '../../ui/public-page';
import { TextField } from '../../ui/field';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { Spinner } from '../../ui/spinner';
import { useForm, useSubmit } from '../../ui/use-form';
import { startSession } from './session';
import { useTokenCheck } from './use-token-check';

async function validateInvitation(uuid: string): Promise<string | null> {
  const { data } = await api.POST('/users/sign-up/validate', { body: { uuid } });
  return data?.data[0]?.login ?? null;
}

/**
 * /sign-up/:uuid, 'Join platform': the invitation is checked on entry, its email is shown and
 * cannot be changed, the user chooses a password. Then the session starts and /get-started follows.
 */
export default function SignUpPage() {
  const { uuid = '' } = useParams();
  const store = useStore();
  const navigate = useNavigate();
  const token = useTokenCheck(uuid, validateInvitation);
  const [refused, setRefused] = useState(false);
  const form = useForm(signUpSchema, { login: '', password: '' });
  const [message, setMessage] = useState<string | null>(null);
  const { setValue } = form;

  useEffect(() => {
    if (token.status === 'valid') setValue('login', token.login);
  }, [token, setValue]);

  const { run, busy } = useSubmit(async () => {
    form.markSubmitted();
    setMessage(null);
    if (!form.output || token.status !== 'valid') return;
    try {
      const { data, error } = await api.POST('/users/sign-up/complete', {
        body: { login: token.login, password: form.output.password, uuid },
      });
      if (data) {
        startSession(store, data.userToken, data.user);
        await navigate(paths.getStarted.url(), { replace: true });
        return;
      }
      if (isApiErrorBody(error) && error.error === 'invalidToken') setRefused(true);
      else if (isApiErrorBody(error) && error.fields) form.setServerCodes(error.fields);
      else setMessage(errorMessages.unhandled);
    } catch (failure) {
      console.error(failure);
      setMessage(errorMessages.offline);
    }
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };

  if (token.status === 'invalid' || refused) {
    return (
      <PublicPage title="Join platform">
        <FormMessage message={errorMessages.invalidToken} />
        <p className="form__actions">
          <Link className="button button--secondary" to={paths.signIn.url()}>
            back to sign in
          </Link>
        </p>
      </PublicPage>
    );
  }

  const tokenValid = token.status === 'valid';
  return (
    <PublicPage title="Join platform">
      {token.status === 'validating' ? <Spinner label="Checking your invitation" /> : null}
      <form className="form" noValidate onSubmit={onSubmit}>
        <FormMessage message={token.status === 'unavailable' ? errorMessages.offline : message} />
        <TextField label="Email" type="email" autoComplete="username" disabled {...form.field('login')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
          {...form.field('password')}
        />
        <div className="form__actions">
          <Button type="submit" busy={busy} disabled={!form.isValid || !tokenValid || busy}>
            sign up
          </Button>
        </div>
      </form>
    </PublicPage>
  );
}
