import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { hasActiveCasesMessages } from '../../../shared/rules/error-codes';
import { api } from '../../api/client';
import { paths } from '../../app/paths';
import { useLeaveConfirmation } from '../../app/leave-confirmation';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useToast } from '../../ui/toast-store';
import { useForm } from '../../ui/use-form';
import { activeCasesText } from '../administration/admin-list';
import { confirmMessages, doneMessages } from '../administration/admin-messages';
import type { Lawyer } from '../administration/calls';
import { useConfirmedAction } from '../administration/confirmed-action';
import { RecordPage, useRecord } from '../administration/record-page';
import { useSaveForm } from '../administration/save-form';
import { LawyerFields, lawyerFields, lawyerFormSchema } from './lawyer-form';

/** /lawyers/:id (crudLawyer): Save and Delete; the login is read-only. Both go back to /lawyers. */
export default function LawyerPage() {
  const { key, state } = useRecord('lawyer', (id) => api.GET('/lawyers/{id}', { params: { path: { id } } }));
  return (
    <RecordPage title="Edit lawyer" state={state}>
      {(lawyer) => <LawyerEditor key={key} lawyer={lawyer} />}
    </RecordPage>
  );
}

function LawyerEditor({ lawyer }: { lawyer: Lawyer }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [message, setMessage] = useState<string | null>(null);
  const form = useForm(lawyerFormSchema, {
    firstName: lawyer.firstName,
    surname: lawyer.surname,
    login: lawyer.login,
    firmId: String(lawyer.firmId),
  });

  const save = useSaveForm(form, {
    fields: lawyerFields,
    call: ({ firstName, surname }) => api.POST('/lawyers/update', { body: { lawyerId: lawyer.id, firstName, surname } }),
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

  useLeaveConfirmation(form.dirty, save.busy || remove.busy);

  return (
    <form className="form admin-form card" noValidate onSubmit={save.onSubmit}>
      <p className="admin-facts">
        <span>{lawyer.firm.firmName}</span> <span>{activeCasesText(lawyer.casesAmount)}</span>
      </p>
      <LawyerFields form={form} loginReadOnly />
      <div className="form__actions">
        <Button type="submit" busy={save.busy} disabled={!form.dirty}>
          Save
        </Button>
        <Button variant="secondary" className="button--danger" busy={remove.busy} onClick={() => void remove.run()}>
          Delete
        </Button>
        <Link className="button button--link" to={paths.lawyers.url()}>
          cancel
        </Link>
      </div>
      <FormMessage message={message} />
    </form>
  );
}
