import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { Page } from '../../ui/page';
import { useToast } from '../../ui/toast-store';
import { doneMessages } from '../../admin-kit/admin-messages';
import { emptySolicitor, SolicitorForm } from './solicitor-form';
import { keptFormKeys } from '../../admin-kit/kept-forms';

/** /solicitors/add (crudSolicitors): page title 'Add lawyer', form title 'Add new solicitor'. */
export default function AddSolicitorPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <Page title="Add new solicitor" documentTitle="Add lawyer">
      <SolicitorForm
        initial={emptySolicitor}
        draftKey={keptFormKeys.addSolicitor()}
        submit={(body) => api.POST('/solicitors', { body })}
        onSaved={async () => {
          toast.notify(doneMessages.solicitorAdded);
          await navigate(paths.solicitors.url());
        }}
        cancelTo={paths.solicitors.url()}
        message={message}
        setMessage={setMessage}
      />
    </Page>
  );
}
