import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useStore } from 'jotai';
import type { passwordUpdateSchema, signUpSchema } from '../../../shared/schemas/account';
import { errorMessages, PASSWORD_HINT } from '../../../shared/rules/error-codes';
import { PublicPage } from '../../ui/public-page';
import { EmailField, TextField } from '../../ui/field';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useForm, useSubmit } from '../../ui/use-form';
import type { ApiAnswer } from '../../api/failure';
import { accountCall } from './account-call';
import { startSession, type SessionUser } from '../../session/session';
import { useTokenCheck, type TokenAnswer } from './use-token-check';

/** A new session, as the password calls answer it (sign-up names its token `userToken`). */
export interface NewSession {
  token: string;
  user: SessionUser;
}

export interface SetPasswordFormProps {
  /** The heading. */
  title: string;
  /** The document title when it differs from the heading. */
  documentTitle?: string;
  submitLabel: string;
  /** Shown in the email field while the link is checked. */
  checkingLabel: string;
  /** The shared schema the server runs again for this call (both hold a login and a new password). */
  schema: typeof signUpSchema | typeof passwordUpdateSchema;
  /** Checks the link's token: the account's email, or why not; throws without an answer. */
  checkToken: (token: string) => Promise<TokenAnswer>;
  /** Sets the password with the link's token and starts a session. */
  complete: (input: { token: string; login: string; password: string }) => Promise<ApiAnswer<NewSession>>;
  /** Where the user goes once signed in. */
  next: string;
  /** The way on from the invalid-link state. */
  invalidLink: { to: string; label: string };
}

/**
 * The screen behind both links that set a password (/sign-up/:uuid and /reset/validate/:uuid): the
 * token is checked on entry (inside the email field, so the form does not move when it answers),
 * the account's email is shown and cannot be changed, the user chooses a password with the policy
 * as its hint; then the session starts and the user is taken on. A refused token, on entry or on
 * submit, shows the spec's invalid-token text.
 */
export function SetPasswordForm({
  title,
  documentTitle,
  submitLabel,
  checkingLabel,
  schema,
  checkToken,
  complete,
  next,
  invalidLink,
}: SetPasswordFormProps) {
  const { uuid = '' } = useParams();
  const store = useStore();
  const navigate = useNavigate();
  const token = useTokenCheck(uuid, checkToken);
  const [refused, setRefused] = useState(false);
  const form = useForm(schema, { login: '', password: '' });
  const [message, setMessage] = useState<string | null>(null);
  const { setInitialValues, discard } = form;
  const linkRefused = token.status === 'invalid' || refused;

  useEffect(() => {
    // The link's email is not the user's change: it does not count as unsaved.
    if (token.status === 'valid') setInitialValues({ login: token.login });
  }, [token, setInitialValues]);

  useEffect(() => {
    // A refused link leaves nothing to save: an update may reload this page.
    if (linkRefused) discard();
  }, [linkRefused, discard]);

  const { onSubmit, busy } = useSubmit(async () => {
    form.markSubmitted();
    setMessage(null);
    const output = form.output;
    if (!output || token.status !== 'valid') return;
    const result = await accountCall(
      () => complete({ token: uuid, login: token.login, password: output.password }),
      { setMessage, setServerCodes: form.setServerCodes },
      (_status, body) => {
        if (body?.error !== 'invalidToken') return false;
        setRefused(true);
        return true;
      },
    );
    if (!result.ok) return;
    form.markSaved();
    startSession(store, result.data.token, result.data.user);
    await navigate(next, { replace: true });
  });

  if (linkRefused) {
    return (
      <PublicPage title={title} documentTitle={documentTitle}>
        <FormMessage message={errorMessages.invalidToken} />
        <p className="form__actions">
          <Link className="button button--secondary" to={invalidLink.to}>
            {invalidLink.label}
          </Link>
        </p>
      </PublicPage>
    );
  }

  return (
    <PublicPage title={title} documentTitle={documentTitle}>
      <form className="form" noValidate onSubmit={onSubmit}>
        <EmailField disabled pending={token.status === 'validating' ? checkingLabel : undefined} {...form.field('login')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_HINT}
          {...form.field('password')}
        />
        <div className="form__actions">
          <Button type="submit" busy={busy} disabled={!form.isValid || token.status !== 'valid' || busy}>
            {submitLabel}
          </Button>
        </div>
        <FormMessage
          message={
            token.status === 'unavailable'
              ? errorMessages.offline
              : token.status === 'tooMany'
                ? errorMessages.tooManyAttempts
                : message
          }
        />
      </form>
    </PublicPage>
  );
}
