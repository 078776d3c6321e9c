import { Page } from '../ui/page';

/** Unknown paths, inside the layout, with the spec's two texts. */
export default function NotFoundPage() {
  return (
    <Page title="The page you were looking for doesn’t exist." documentTitle="Page not found">
      <p>You may have mistyped the address or the page may have moved.</p>
    </Page>
  );
}
