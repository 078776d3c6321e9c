import { Page } from '../../ui/page';

/** /clients/:id (crudClients). */
export default function ClientPage() {
  return <Page title="Edit client" />;
}
