import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useStore } from 'jotai';
import { passwordUpdateSchema } from '../../../shared/schemas/account';
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

/**
 * /reset/validate/:uuid: the link's token is checked on entry; the user sets a new password, is
 * signed in and taken to /applications. The mail may add `?login=` to the link; it is passed on.
 */
export default function ResetValidatePage() {
  const { uuid = '' } = useParams();
  const [params] = useSearchParams();
  const loginHint = params.get('login');
  const store = useStore();
  const navigate = useNavigate();
  const token = useTokenCheck(uuid, async (value) => {
    const { data } = await api.POST('/users/reset/validate', {
      body: { token: value, ...(loginHint ? { login: loginHint } : {}) },
    });
    return data?.login ?? null;
  });
  const [refused, setRefused] = useState(false);
  const form = useForm(passwordUpdateSchema, { login: '', password: '' });
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
      const { data, error } = await api.POST('/users/reset/update', {
        body: { token: uuid, login: token.login, password: form.output.password },
      });
      if (data) {
        startSession(store, data.token, data.user);
        await navigate(paths.applications.url(), { replace: true });
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
      <PublicPage title="Update password" documentTitle="Reset password">
        <FormMessage message={errorMessages.invalidToken} />
        <p className="form__actions">
          <Link className="button button--secondary" to={paths.reset.url()}>
            reset password
          </Link>
        </p>
      </PublicPage>
    );
  }

  return (
    <PublicPage title="Update password" documentTitle="Reset password">
      {token.status === 'validating' ? <Spinner label="Checking your link" /> : null}
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
          <Button type="submit" busy={busy} disabled={!form.isValid || token.status !== 'valid' || busy}>
            update
          </Button>
        </div>
      </form>
    </PublicPage>
  );
}
