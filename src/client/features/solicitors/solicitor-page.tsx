import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { hasActiveCasesMessages } from '../../../shared/rules/error-codes';
import { solicitorAddressParts } from '../../../shared/schemas/administration';
import { changedParts } from '../../admin-kit/save-form';
import { WhyNoDelete } from '../../admin-kit/why-no-delete';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import NotFoundPage from '../../routing/not-found-page';
import { Button } from '../../ui/button';
import { useToast } from '../../ui/toast-store';
import { activeCasesText } from '../../admin-kit/admin-list';
import { confirmMessages, doneMessages } from '../../admin-kit/admin-messages';
import type { Solicitor } from '../../admin-kit/calls';
import { useConfirmedAction } from '../../admin-kit/confirmed-action';
import { RecordPage, useRecord } from '../../admin-kit/record-page';
import { SolicitorForm, solicitorValues } from './solicitor-form';
import { keptFormKeys } from '../../admin-kit/kept-forms';

/**
 * /solicitors/:id (crudSolicitors), 'Update solicitor': Save and Delete, the email read-only; both go
 * back to /solicitors. A solicitor with active cases cannot be deleted (the spec's words).
 */
export default function SolicitorPage() {
  const { key, state, read } = useRecord('solicitor', (id) => api.GET('/solicitors/{id}', { params: { path: { id } } }));
  // A deleted solicitor still reads (for applications that chose one) but is no longer edited here.
  if (state.status === 'ready' && state.data.state === 'inactive') return <NotFoundPage />;
  return (
    <RecordPage title="Update solicitor" state={state} read={read}>
      {(solicitor) => <SolicitorEditor key={key} solicitor={solicitor} />}
    </RecordPage>
  );
}

function SolicitorEditor({ solicitor }: { solicitor: Solicitor }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [message, setMessage] = useState<string | null>(null);
  const remove = useConfirmedAction({
    question: confirmMessages.deleteSolicitor,
    call: () => api.DELETE('/solicitors/{id}', { params: { path: { id: solicitor.id } } }),
    hasActiveCases: hasActiveCasesMessages.solicitor,
    setMessage,
    onDone: async () => {
      toast.notify(doneMessages.solicitorDeleted);
      await navigate(paths.solicitors.url());
    },
  });
  return (
    <>
      <p className="admin-facts">{activeCasesText(solicitor.casesAmount)}</p>
      <SolicitorForm
        initial={solicitorValues(solicitor)}
        emailReadOnly
        draftKey={keptFormKeys.solicitor(solicitor.id)}
        submit={({ email: _email, ...body }, changed) =>
          api.POST('/solicitors/update', {
            body: changedParts({ solicitorId: solicitor.id, ...body }, changed, {
              keep: ['solicitorId'],
              fieldsOf: { address: solicitorAddressParts },
            }),
          })
        }
        onSaved={async () => {
          toast.notify(doneMessages.solicitorSaved);
          await navigate(paths.solicitors.url());
        }}
        cancelTo={paths.solicitors.url()}
        message={message}
        setMessage={setMessage}
        extraBusy={remove.busy}
        canSave={solicitor.abilities.edit}
        extraActions={
          solicitor.abilities.delete ? (
            <Button variant="secondary" className="button--danger" busy={remove.busy} onClick={() => void remove.run()}>
              Delete
            </Button>
          ) : (
            <WhyNoDelete
              abilities={solicitor.abilities}
              casesAmount={solicitor.casesAmount}
              message={hasActiveCasesMessages.solicitor}
            />
          )
        }
      />
    </>
  );
}
