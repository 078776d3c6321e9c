import { Page } from '../../ui/page';

/** /applications/:id/:step (updateApplication). The wizard steps come with their issue. */
export default function ApplicationStepPage() {
  return <Page title="Application" />;
}
