import { Page } from '../../ui/page';

/** /lawyers/:id (crudLawyer). */
export default function LawyerPage() {
  return <Page title="Edit lawyer" />;
}
