import { Page } from '../../ui/page';

/** /drawdowns/:id. The detail and its actions come with the drawdowns issue. */
export default function DrawdownPage() {
  return <Page title="Drawdown" />;
}
