import { Page } from '../../ui/page';

/** /lawyers (crudLawyer). The list comes with the lawyers issue. */
export default function LawyersPage() {
  return <Page title="Lawyers" />;
}
