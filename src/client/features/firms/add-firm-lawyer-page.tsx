import { Page } from '../../ui/page';

/** /firms/:firmId/add. */
export default function AddFirmLawyerPage() {
  return <Page title="Add new Lawyer" />;
}
