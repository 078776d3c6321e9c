import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { failureMessage, codeMessage, type Failure } from '../../../api/failure';
import { paths } from '../../../routing/paths';
import { Button } from '../../../ui/button';
import { CheckboxField } from '../../../ui/choice-fields';
import { TextField } from '../../../ui/field';
import { FormMessage } from '../../../ui/form-message';
import { Page } from '../../../ui/page';
import { PageSpinner } from '../../../ui/spinner';
import { useOnline } from '../../../api/connection';
import type { components } from '../../../../shared/api/schema';
import { errorMessages } from '../../../../shared/rules/error-codes';
import { SIGNING_CODE_DIGITS, SIGNING_CODE_TTL_MINUTES } from '../../../../shared/rules/esign';
import { formatDateTime, formatMoney } from '../../../../shared/rules/formats';
import { loanReference } from '../../../../shared/rules/loan-reference';
import { esignApi } from './esign-api';
import './esign.css';

type SigningSession = components['schemas']['SigningSession'];

/** The page's words (docs/decisions.md: 288). */
export const ESIGN_TEXT = {
  title: 'Sign your documents',
  signedTitle: 'Documents signed',
  expiredTitle: 'This signing link cannot be used',
  intro: 'Please read each document, then ask for a code by email and sign. Signing needs a connection.',
  offline:
    'You are offline. Signing needs a connection: please connect to the internet to ask for a code and to sign. Nothing has been signed.',
  readHeading: '1. Read the documents',
  codeHeading: '2. Get your code',
  signHeading: '3. Sign',
  codeLabel: 'Code from the email',
  agreeLabel: 'I have read the documents and I agree to their terms.',
  sendCode: 'email me a code',
  sendNewCode: 'email me a new code',
  sign: 'sign documents',
  notAllOpened: 'Please open each document before you sign.',
  codeMissing: `Please enter the ${SIGNING_CODE_DIGITS}-digit code from the email.`,
  notAgreed: 'Please confirm that you have read the documents and agree to their terms.',
  opened: 'Opened',
  backToApplication: 'back to application',
  backToApplications: 'back to applications',
  backToLoan: 'back to loan',
} as const;

/** What a variation of the loan's Credit Agreement changes (our wording: docs/decisions.md, 515). */
function variationIntro(variation: NonNullable<SigningSession['variation']>): string {
  return (
    `This variation of your Credit Agreement raises the credit of your loan ${loanReference(variation.loanId)} from ` +
    `${formatMoney(variation.signedAmount)} to ${formatMoney(variation.amount)}.`
  );
}

/** Codes about the code itself: shown on the code field. */
const codeFieldErrors = new Set(['signingCodeInvalid', 'signingCodeExpired', 'signingCodeNeeded', 'signingCodeAttempts']);
/** Download links last five minutes: the page fetches fresh ones before they run out. */
const REFRESH_LINKS_MS = 4 * 60 * 1000;

type Load = { state: 'loading' } | { state: 'failed'; failure: Failure } | { state: 'ready'; session: SigningSession };

/** /esign/:token: the built-in provider's signing page (docs/decisions.md: 285-288). */
export default function SigningPage() {
  const { token = '' } = useParams();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  const refresh = useCallback(async () => {
    const outcome = await esignApi.session(token);
    if (outcome.ok) setLoad({ state: 'ready', session: outcome.data });
    else
      setLoad((current) =>
        current.state === 'ready' && outcome.kind === 'offline' ? current : { state: 'failed', failure: outcome },
      );
  }, [token]);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), REFRESH_LINKS_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  if (load.state === 'loading') return <PageSpinner />;
  if (load.state === 'failed') return <Unavailable failure={load.failure} retry={refresh} />;
  if (load.session.status === 'signed') return <Signed session={load.session} />;
  return <SignForm token={token} session={load.session} onSigned={refresh} />;
}

function Unavailable({ failure, retry }: { failure: Failure; retry: () => Promise<void> }) {
  const expired = failure.kind === 'http' && failure.status === 410;
  const message = expired ? codeMessage('signingLinkExpired') : failureMessage(failure);
  return (
    <Page title={expired ? ESIGN_TEXT.expiredTitle : ESIGN_TEXT.title}>
      <div className="esign">
        <FormMessage message={message} />
        {failure.kind === 'offline' ? (
          <Button variant="secondary" onClick={() => void retry()}>
            try again
          </Button>
        ) : null}
        <p>
          <Link to={paths.applications.url()}>{ESIGN_TEXT.backToApplications}</Link>
        </p>
      </div>
    </Page>
  );
}

function DocumentList({
  session,
  opened,
  onOpen,
}: {
  session: SigningSession;
  opened?: Set<string>;
  onOpen?: (type: string) => void;
}) {
  return (
    <ul className="esign__documents">
      {session.documents.map((document) => (
        <li key={document.type} className="esign__document">
          <a href={document.download.url} target="_blank" rel="noopener" onClick={() => onOpen?.(document.type)}>
            {document.title}
            <span className="visually-hidden"> (PDF, opens in a new window)</span>
          </a>
          {opened?.has(document.type) ? <span className="esign__opened">{ESIGN_TEXT.opened}</span> : null}
        </li>
      ))}
    </ul>
  );
}

function Signed({ session }: { session: SigningSession }) {
  const variation = (session as Partial<SigningSession>).variation ?? null;
  return (
    <Page title={ESIGN_TEXT.signedTitle}>
      <div className="esign">
        <p role="status">
          {variation
            ? `You signed the variation on ${formatDateTime(session.signedAt)}. The credit of your loan ${loanReference(variation.loanId)} is now ${formatMoney(variation.signedAmount)}.`
            : `You signed these documents on ${formatDateTime(session.signedAt)}. A loan has been created for this application.`}
        </p>
        <section className="esign__section" aria-labelledby="esign-signed-docs">
          <h2 id="esign-signed-docs">Your signed documents</h2>
          <DocumentList session={session} />
        </section>
        <p>
          {variation ? (
            <Link className="button button--primary" to={paths.loan.url({ id: variation.loanId })}>
              {ESIGN_TEXT.backToLoan}
            </Link>
          ) : (
            <Link className="button button--primary" to={paths.applicationDetails.url({ id: session.applicationId })}>
              {ESIGN_TEXT.backToApplication}
            </Link>
          )}
        </p>
      </div>
    </Page>
  );
}

function SignForm({ token, session, onSigned }: { token: string; session: SigningSession; onSigned: () => Promise<void> }) {
  const online = useOnline();
  const [opened, setOpened] = useState<Set<string>>(() => new Set());
  const [code, setCode] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [codeSentUntil, setCodeSentUntil] = useState<string | null>(session.codeExpiresAt);
  const [sending, setSending] = useState(false);
  const [signing, setSigning] = useState(false);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [agreeError, setAgreeError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const open = (type: string) => setOpened((current) => new Set(current).add(type));

  const sendCode = async () => {
    setMessage(null);
    setSending(true);
    const outcome = await esignApi.sendCode(token);
    setSending(false);
    if (outcome.ok) {
      setCodeSentUntil(outcome.data.expiresAt);
      setCodeError(null);
      setNotice(`We have emailed a code to ${outcome.data.sentTo}. It works for ${SIGNING_CODE_TTL_MINUTES} minutes.`);
      return;
    }
    if (outcome.kind === 'http' && outcome.status === 410) return void onSigned();
    setMessage(outcome.kind === 'offline' ? errorMessages.offline : codeMessage(outcome.code, failureMessage(outcome)));
  };

  const sign = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const missingCode = !new RegExp(`^\\d{${SIGNING_CODE_DIGITS}}$`).test(code);
    setCodeError(missingCode ? ESIGN_TEXT.codeMissing : null);
    setAgreeError(agreed ? null : ESIGN_TEXT.notAgreed);
    const allOpened = session.documents.every((d) => opened.has(d.type));
    if (!allOpened) setMessage(ESIGN_TEXT.notAllOpened);
    if (missingCode || !agreed || !allOpened) return;
    setSigning(true);
    const outcome = await esignApi.sign(token, code);
    setSigning(false);
    if (outcome.ok) return void onSigned();
    if (outcome.kind === 'offline') return setMessage(errorMessages.offline);
    if (codeFieldErrors.has(outcome.code)) return setCodeError(codeMessage(outcome.code));
    if (outcome.status === 410) return void onSigned();
    setMessage(codeMessage(outcome.code, failureMessage(outcome)));
  };

  return (
    <Page title={ESIGN_TEXT.title}>
      <form className="esign" onSubmit={(event) => void sign(event)} noValidate>
        {session.variation ? <p>{variationIntro(session.variation)}</p> : null}
        <p>{ESIGN_TEXT.intro}</p>
        {session.caseRef ? <p>{`Case reference: ${session.caseRef}`}</p> : null}
        {online ? null : (
          <p className="esign__offline" role="status">
            {ESIGN_TEXT.offline}
          </p>
        )}

        <section className="esign__section" aria-labelledby="esign-read">
          <h2 id="esign-read">{ESIGN_TEXT.readHeading}</h2>
          <p>Open each document and read it. They open as PDF files.</p>
          <DocumentList session={session} opened={opened} onOpen={open} />
        </section>

        <section className="esign__section" aria-labelledby="esign-code">
          <h2 id="esign-code">{ESIGN_TEXT.codeHeading}</h2>
          <p>{`We will email a ${SIGNING_CODE_DIGITS}-digit code to ${session.signerEmail}. It works for ${SIGNING_CODE_TTL_MINUTES} minutes.`}</p>
          <div role="status">{notice ? <p>{notice}</p> : null}</div>
          <Button variant="secondary" busy={sending} disabled={!online} onClick={() => void sendCode()}>
            {codeSentUntil ? ESIGN_TEXT.sendNewCode : ESIGN_TEXT.sendCode}
          </Button>
        </section>

        <section className="esign__section" aria-labelledby="esign-sign">
          <h2 id="esign-sign">{ESIGN_TEXT.signHeading}</h2>
          <TextField
            label={ESIGN_TEXT.codeLabel}
            value={code}
            onValueChange={(value) => setCode(value.replace(/\D/g, ''))}
            maxLength={SIGNING_CODE_DIGITS}
            inputMode="numeric"
            autoComplete="one-time-code"
            error={codeError}
          />
          <CheckboxField label={ESIGN_TEXT.agreeLabel} checked={agreed} onCheckedChange={setAgreed} error={agreeError} />
          <FormMessage message={message} />
          <Button type="submit" busy={signing} disabled={!online}>
            {ESIGN_TEXT.sign}
          </Button>
        </section>
      </form>
    </Page>
  );
}
