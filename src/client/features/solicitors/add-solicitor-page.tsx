import { Page } from '../../ui/page';

/** /solicitors/add (crudSolicitors): page title 'Add lawyer', form title 'Add new solicitor'. */
export default function AddSolicitorPage() {
  return <Page title="Add new solicitor" documentTitle="Add lawyer" />;
}
