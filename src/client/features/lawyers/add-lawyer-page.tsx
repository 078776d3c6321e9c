import { Page } from '../../ui/page';

/** /lawyers/add (crudLawyer). */
export default function AddLawyerPage() {
  return <Page title="Add lawyer" />;
}
