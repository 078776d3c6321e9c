import { useAtomValue } from 'jotai';
import { navTitle } from '../../routing/paths';
import { sessionUserAtom } from '../../session/session';
import { Page } from '../../ui/page';
import { InfoPanel } from '../../ui/info-panel';

/** /loans: titled as in the menu ('Request Drawdown', or 'Loans' for lawyers). The list comes with the loans issue. */
export default function LoansPage() {
  const user = useAtomValue(sessionUserAtom);
  return (
    <Page title={user ? navTitle('loans', user.role) : 'Loans'}>
      <InfoPanel
        header="More info on loans"
        steps={[
          'A signed application creates a loan. Credit available is the credit offered minus the drawdowns taken.',
          'The lawyer requests drawdowns from the loan to pay fees.',
          'The provider’s staff review each request.',
          'The client approves it by electronic signature.',
          'The provider pays it by bank transfer.',
        ]}
      />
    </Page>
  );
}
