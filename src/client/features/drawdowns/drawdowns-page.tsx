import { useAtomValue } from 'jotai';
import { navTitle } from '../../routing/paths';
import { sessionUserAtom } from '../../session/session';
import { Page } from '../../ui/page';

/** /drawdowns: titled as in the menu ('Drawdown History', or 'Drawdowns' for lawyers). */
export default function DrawdownsPage() {
  const user = useAtomValue(sessionUserAtom);
  return <Page title={user ? navTitle('drawdowns', user.role) : 'Drawdowns'} />;
}
