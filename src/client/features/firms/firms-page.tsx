import { Page } from '../../ui/page';

/** /firms (crudFirm). The list comes with the firms issue. */
export default function FirmsPage() {
  return <Page title="Law firms" />;
}
