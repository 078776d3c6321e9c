import { Page } from '../../ui/page';

/** /applications/:id/details (readApplication). The review screens come with their issue. */
export default function ApplicationDetailsPage() {
  return <Page title="Application details" />;
}
