import { Page } from '../../ui/page';
import { InfoPanel } from '../../ui/info-panel';

/** /applications. The list itself comes with the applications issue. */
export default function ApplicationsPage() {
  return (
    <Page title="Applications">
      <InfoPanel
        header="More info on applications"
        steps={[
          'A lawyer creates an application for a client. The client is invited by email to join by setting a password.',
          'The lawyer and the client complete the application journey and it is submitted.',
          'The provider reviews it and accepts or rejects it.',
          'The client reviews the contract and documents and obtains independent legal advice (fixed fee of £250 plus VAT).',
          'The provider confirms receipt of the certificate of advice, prepares the documents for electronic signature and notifies the client.',
          'The client signs electronically. Signing creates a loan.',
        ]}
      />
    </Page>
  );
}
