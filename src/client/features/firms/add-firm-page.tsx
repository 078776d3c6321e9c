import { Page } from '../../ui/page';

/** /firms/add (crudFirm). */
export default function AddFirmPage() {
  return <Page title="Add Law Firm" />;
}
