import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { hasActiveCasesMessages } from '../../../shared/rules/error-codes';
import { WhyNoDelete } from '../../admin-kit/why-no-delete';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { useLeaveConfirmation } from '../../routing/leave-confirmation';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useToast } from '../../ui/toast-store';
import { useKeptRecordForm } from '../../offline/kept-record-form';
import { keptFormKeys } from '../../admin-kit/kept-forms';
import { activeCasesText } from '../../admin-kit/admin-list';
import { confirmMessages, doneMessages } from '../../admin-kit/admin-messages';
import type { Lawyer } from '../../admin-kit/calls';
import { useConfirmedAction } from '../../admin-kit/confirmed-action';
import { RecordPage, useRecord } from '../../admin-kit/record-page';
import { changedParts, useSaveForm } from '../../admin-kit/save-form';
import { useFieldsFollow } from '../../admin-kit/follow-record';
import { LawyerFields, lawyerFields, lawyerFormSchema } from '../../admin-kit/lawyer-form';

/** /lawyers/:id (crudLawyer): Save and Delete; the login is read-only. Both go back to /lawyers. */
export default function LawyerPage() {
  const { key, state, read } = useRecord('lawyer', (id) => api.GET('/lawyers/{id}', { params: { path: { id } } }));
  return (
    <RecordPage title="Edit lawyer" state={state} read={read}>
      {(lawyer) => <LawyerEditor key={key} lawyer={lawyer} />}
    </RecordPage>
  );
}

function LawyerEditor({ lawyer }: { lawyer: Lawyer }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [message, setMessage] = useState<string | null>(null);
  const values = {
    firstName: lawyer.firstName,
    surname: lawyer.surname,
    login: lawyer.login,
    firmId: String(lawyer.firmId),
  };
  const form = useKeptRecordForm(lawyerFormSchema, values, { draftKey: keptFormKeys.lawyer(lawyer.id) });
  useFieldsFollow(form.setInitialValues, values);

  const save = useSaveForm(form, {
    fields: lawyerFields,
    call: ({ firstName, surname }, changed) =>
      api.POST('/lawyers/update', {
        body: changedParts({ lawyerId: lawyer.id, firstName, surname }, changed, { keep: ['lawyerId'] }),
      }),
    setMessage,
    onSaved: async () => {
      toast.notify(doneMessages.lawyerSaved);
      await navigate(paths.lawyers.url());
    },
  });

  const remove = useConfirmedAction({
    question: confirmMessages.deleteLawyer,
    call: () => api.DELETE('/lawyers/{id}', { params: { path: { id: lawyer.id } } }),
    hasActiveCases: hasActiveCasesMessages.lawyer,
    setMessage,
    onDone: async () => {
      toast.notify(doneMessages.lawyerDeleted);
      await navigate(paths.lawyers.url());
    },
  });

  useLeaveConfirmation(form.dirty, save.busy || remove.busy, { keptOnDevice: form.keptOnDevice, onLeave: form.forget });

  return (
    <form className="form admin-form card" noValidate onSubmit={save.onSubmit}>
      <p className="admin-facts">
        <span>{lawyer.firm.firmName}</span> <span>{activeCasesText(lawyer.casesAmount)}</span>
      </p>
      <LawyerFields form={form} loginReadOnly />
      <div className="form__actions">
        {lawyer.abilities.edit ? (
          <Button type="submit" busy={save.busy} disabled={!form.dirty}>
            Save
          </Button>
        ) : null}
        {lawyer.abilities.delete ? (
          <Button variant="secondary" className="button--danger" busy={remove.busy} onClick={() => void remove.run()}>
            Delete
          </Button>
        ) : null}
        <Link className="button button--link" to={paths.lawyers.url()}>
          cancel
        </Link>
        <WhyNoDelete abilities={lawyer.abilities} casesAmount={lawyer.casesAmount} message={hasActiveCasesMessages.lawyer} />
      </div>
      <FormMessage message={message} />
    </form>
  );
}
