import { useState, type ReactNode } from 'react';
import * as v from 'valibot';
import { Page } from '../../ui/page';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { FormMessage } from '../../ui/form-message';
import { InfoPanel } from '../../ui/info-panel';
import { Spinner } from '../../ui/spinner';
import { useToast } from '../../ui/toast-store';
import { useConfirm, useInfo } from '../../ui/modal-store';
import { LEAVE_UNSAVED_MESSAGE } from '../../ui/unsaved-changes';
import { useLeaveConfirmation } from '../../routing/leave-confirmation';
import { useForm, useSubmit } from '../../ui/use-form';
import { PASSWORD_HINT, fieldMessages } from '../../../shared/rules/error-codes';
import { emailSchema } from '../../../shared/schemas/account';
import './ui-page.css';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="ui-section">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

const demoSchema = v.object({
  name: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required')),
  email: emailSchema,
});

/** How long the demonstration form pretends to save. */
const DEMO_SAVE_MS = 1000;

/**
 * An edit form as the later issues build them: useForm reports its unsaved changes, and the page
 * asks before leaving while it is dirty and not saving (useLeaveConfirmation). Nothing is sent.
 */
function EditFormDemo() {
  const form = useForm(demoSchema, { name: 'Alex Morgan', email: 'alex.morgan@example.com' });
  const { onSubmit, busy } = useSubmit(async () => {
    form.markSubmitted();
    if (!form.output) return;
    await new Promise((resolve) => window.setTimeout(resolve, DEMO_SAVE_MS));
    form.markSaved();
  });
  useLeaveConfirmation(form.dirty, busy);

  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      <TextField label="Name" autoComplete="off" {...form.field('name')} />
      <TextField label="Contact email" type="email" autoComplete="off" {...form.field('email')} />
      {/* One short line either way: nothing moves when it changes. */}
      <p role="status">{form.dirty ? 'Unsaved changes' : 'No unsaved changes'}</p>
      <div className="form__actions">
        <Button type="submit" busy={busy} disabled={form.hasErrors || busy}>
          Save
        </Button>
      </div>
    </form>
  );
}

/** /ui: a hidden developer page showing every interface component in its states. */
export default function UiPage() {
  const toast = useToast();
  const confirm = useConfirm();
  const info = useInfo();
  const [answer, setAnswer] = useState<string>('');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);

  return (
    <Page title="Interface components">
      <Section title="Buttons">
        <div className="ui-row">
          <Button>primary</Button>
          <Button variant="secondary">secondary</Button>
          <Button variant="link">link</Button>
          <Button disabled>disabled</Button>
          <Button
            busy={busy}
            onClick={() => {
              setBusy(true);
              window.setTimeout(() => setBusy(false), 1500);
            }}
          >
            busy for 1.5 s
          </Button>
        </div>
      </Section>

      <Section title="Fields">
        <TextField label="Plain field" value={text} onValueChange={setText} />
        <TextField label="With a hint" type="password" value="" onValueChange={() => undefined} hint={PASSWORD_HINT} />
        <TextField label="With an error" value="not-an-email" onValueChange={() => undefined} error={fieldMessages.email} />
        <TextField label="Marked 'empty' (no message)" value="" onValueChange={() => undefined} invalid />
        <TextField label="Disabled" value="someone@example.com" onValueChange={() => undefined} disabled />
        <FormMessage message="A message about the whole form." />
      </Section>

      <Section title="Edit form">
        <p>Change a field, then follow a link: leaving asks first. Saving takes a second.</p>
        <EditFormDemo />
      </Section>

      <Section title="Spinner">
        <Spinner />
      </Section>

      <Section title="Information panel">
        <InfoPanel
          header="Header"
          title="Title"
          section="Section"
          description="Description of the panel."
          steps={['First step', 'Second step', 'Third step']}
        />
      </Section>

      <Section title="Toasts">
        <div className="ui-row">
          <Button variant="secondary" onClick={() => toast.notify('An information message.')}>
            notification
          </Button>
          <Button variant="secondary" onClick={() => toast.error('An error message.')}>
            error
          </Button>
          <Button variant="secondary" onClick={() => toast.unhandled()}>
            unhandled error
          </Button>
        </div>
      </Section>

      <Section title="Modals">
        <div className="ui-row">
          <Button variant="secondary" onClick={() => void info('Something you should know.').then(() => setAnswer('ok'))}>
            info modal
          </Button>
          <Button
            variant="secondary"
            onClick={() => void confirm(LEAVE_UNSAVED_MESSAGE).then((yes) => setAnswer(yes ? 'Yes' : 'No'))}
          >
            confirm modal
          </Button>
        </div>
        <p role="status">{answer ? `Answer: ${answer}` : null}</p>
      </Section>

      <Section title="Page headers">
        <div className="ui-row">
          <div className="ui-swatch site-header--staff">Staff (admin, root)</div>
          <div className="ui-swatch site-header--member">Lawyers, firms, clients</div>
        </div>
      </Section>
    </Page>
  );
}
