import { Page } from '../../ui/page';

/** /applications/new (createApplication). The form comes with the wizard issue. */
export default function NewApplicationPage() {
  return <Page title="New application" />;
}
