import { Page } from '../../ui/page';

/** /firms/:firmId. */
export default function FirmPage() {
  return <Page title="Law firm" />;
}
