import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { hasActiveCasesMessages } from '../../../shared/rules/error-codes';
import { api } from '../../api/client';
import { paths } from '../../app/paths';
import { useLeaveConfirmation } from '../../app/leave-confirmation';
import NotFoundPage from '../../app/not-found-page';
import { Page } from '../../ui/page';
import { PageSpinner } from '../../ui/spinner';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useToast } from '../../ui/toast-store';
import { useForm, useSubmit } from '../../ui/use-form';
import { confirmMessages, doneMessages, useConfirmedAction } from '../firms/admin-actions';
import { activeCasesText, notFoundAnswer, recordId, send, showSaveFailure, useLoad, type Lawyer } from '../firms/admin-kit';
import { LawyerFields, lawyerFields, lawyerFormSchema } from './lawyer-form';

/** /lawyers/:id (crudLawyer): Save and Delete; the login is read-only. Both go back to /lawyers. */
export default function LawyerPage() {
  const { id: param = '' } = useParams();
  const id = recordId(param);
  const { state } = useLoad(`lawyer ${param}`, () => (id ? api.GET('/lawyers/{id}', { params: { path: { id } } }) : notFoundAnswer<Lawyer>()));
  if (state.status === 'notFound') return <NotFoundPage />;
  return (
    <Page title="Edit lawyer">
      {state.status === 'ready' ? (
        <LawyerEditor key={param} lawyer={state.data} />
      ) : state.status === 'failed' ? (
        <FormMessage message={state.message} />
      ) : (
        <PageSpinner />
      )}
    </Page>
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

  const save = useSubmit(async () => {
    form.markSubmitted();
    setMessage(null);
    const output = form.output;
    if (!output) return;
    const { firstName, surname } = output;
    const outcome = await send(() => api.POST('/lawyers/update', { body: { lawyerId: lawyer.id, firstName, surname } }));
    if (!outcome.ok) {
      showSaveFailure(outcome, { setServerCodes: form.setServerCodes, setMessage }, lawyerFields);
      return;
    }
    form.markSaved();
    toast.notify(doneMessages.lawyerSaved);
    await navigate(paths.lawyers.url());
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
