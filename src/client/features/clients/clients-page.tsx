import { Page } from '../../ui/page';

/** /clients (crudClients). The list comes with the clients issue. */
export default function ClientsPage() {
  return <Page title="Clients" />;
}
