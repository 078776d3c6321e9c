import { Page } from '../../ui/page';

/** /solicitors (crudSolicitors). The list comes with the solicitors issue. */
export default function SolicitorsPage() {
  return <Page title="Solicitors" />;
}
