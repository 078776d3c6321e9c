import { useAtomValue } from 'jotai';
import { paths } from '../../routing/paths';
import { Page } from '../../ui/page';
import { sessionUserAtom } from '../../session/session';
import { AddLawyerForm } from '../../admin-kit/lawyer-form';

/**
 * /lawyers/add (crudLawyer): staff choose the firm; a firm admin adds to their own firm. Then
 * back to /lawyers.
 */
export default function AddLawyerPage() {
  const user = useAtomValue(sessionUserAtom);
  if (!user) return null;
  const firmId = user.role === 'firm' ? user.firmId : null;
  return (
    <Page title="Add lawyer">
      <AddLawyerForm firmId={firmId} done={paths.lawyers.url()} />
    </Page>
  );
}
