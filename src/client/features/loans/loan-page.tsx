import { Page } from '../../ui/page';

/** /loans/:id. The loan and its drawdown form come with the loans issue. */
export default function LoanPage() {
  return <Page title="Open Loan" />;
}
