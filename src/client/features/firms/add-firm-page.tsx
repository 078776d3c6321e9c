import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { useLeaveConfirmation } from '../../routing/leave-confirmation';
import { Page } from '../../ui/page';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useToast } from '../../ui/toast-store';
import { useKeptRecordForm } from '../../offline/kept-record-form';
import { keptFormKeys } from '../../admin-kit/kept-forms';
import { doneMessages } from '../../admin-kit/admin-messages';
import { useSaveForm } from '../../admin-kit/save-form';
import { emptyFirm, FirmFields, firmFields, firmFormSchema } from './firm-form';

/** /firms/add (crudFirm): the firm and its admin, who is invited by email; then back to /firms. */
export default function AddFirmPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const form = useKeptRecordForm(firmFormSchema, emptyFirm, { draftKey: keptFormKeys.addFirm() });
  const [message, setMessage] = useState<string | null>(null);

  const { onSubmit, busy } = useSaveForm(form, {
    fields: firmFields,
    call: (body) => api.POST('/firms', { body }),
    setMessage,
    onSaved: async () => {
      toast.notify(doneMessages.firmAdded);
      await navigate(paths.firms.url());
    },
  });
  useLeaveConfirmation(form.dirty, busy, { keptOnDevice: form.keptOnDevice, onLeave: form.forget });

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
