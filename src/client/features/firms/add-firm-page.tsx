import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { api } from '../../api/client';
import { paths } from '../../app/paths';
import { useLeaveConfirmation } from '../../app/leave-confirmation';
import { Page } from '../../ui/page';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useToast } from '../../ui/toast-store';
import { useForm, useSubmit } from '../../ui/use-form';
import { doneMessages } from './admin-actions';
import { send, showSaveFailure } from './admin-kit';
import { emptyFirm, FirmFields, firmFields, firmFormSchema } from './firm-form';

/** /firms/add (crudFirm): the firm and its admin, who is invited by email; then back to /firms. */
export default function AddFirmPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const form = useForm(firmFormSchema, emptyFirm);
  const [message, setMessage] = useState<string | null>(null);

  const { onSubmit, busy } = useSubmit(async () => {
    form.markSubmitted();
    setMessage(null);
    const body = form.output;
    if (!body) return;
    const outcome = await send(() => api.POST('/firms', { body }));
    if (!outcome.ok) {
      showSaveFailure(outcome, { setServerCodes: form.setServerCodes, setMessage }, firmFields);
      return;
    }
    form.markSaved();
    toast.notify(doneMessages.firmAdded);
    await navigate(paths.firms.url());
  });
  useLeaveConfirmation(form.dirty, busy);

  return (
    <Page title="Add Law Firm">
      <form className="form admin-form card" noValidate onSubmit={onSubmit}>
        <FirmFields form={form} />
        <div className="form__actions">
          <Button type="submit" busy={busy} disabled={!form.dirty}>
            save
          </Button>
          <Link className="button button--secondary" to={paths.firms.url()}>
            cancel
          </Link>
        </div>
        <FormMessage message={message} />
      </form>
    </Page>
  );
}
