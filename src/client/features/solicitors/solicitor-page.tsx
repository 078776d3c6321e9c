import { Page } from '../../ui/page';

/** /solicitors/:id (crudSolicitors). */
export default function SolicitorPage() {
  return <Page title="Update solicitor" />;
}
