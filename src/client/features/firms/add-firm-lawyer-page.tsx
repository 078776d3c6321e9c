import { useParams } from 'react-router-dom';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import NotFoundPage from '../../routing/not-found-page';
import { Page } from '../../ui/page';
import { FormMessage } from '../../ui/form-message';
import { AddLawyerForm } from '../../admin-kit/lawyer-form';
import { notFoundAnswer, recordId, useLoad, type Firm } from '../../admin-kit/calls';
import './firms.css';

/** /firms/:firmId/add: a lawyer within this firm; then back to the firm's page. */
export default function AddFirmLawyerPage() {
  const { firmId = '' } = useParams();
  const id = recordId(firmId);
  const { state } = useLoad(`firm ${firmId}`, () =>
    id ? api.GET('/firms/{id}', { params: { path: { id } } }) : notFoundAnswer<Firm>(),
  );
  if (state.status === 'notFound' || !id) return <NotFoundPage />;
  return (
    <Page title="Add new Lawyer">
      {/* One line, always there: the firm's name arrives without moving the form. */}
      <p className="admin-subtitle">{state.status === 'ready' ? state.data.firmName : '\u00a0'}</p>
      {state.status === 'failed' ? <FormMessage message={state.message} /> : null}
      <AddLawyerForm firmId={id} done={paths.firm.url({ firmId: id })} />
    </Page>
  );
}
