import { INDEPENDENT_ADVICE_FEE } from '../../../../shared/rules/independent-advice';
import { awaitsIndependentAdvice } from '../../../../shared/rules/review';
import type { ApplicationStatus } from '../../../../shared/rules/statuses';
import type { Application } from '../applications-api';
import { hasContractDocuments } from './contract-files';

/**
 * 'What happens next' on the lawyer's and the client's details screen: after each step of the
 * process, who acts now and what the reader will hear, in words addressed to the reader
 * (docs/decisions.md 456). Null where there is nothing to say (the statuses nothing moves to).
 */
export function nextStepsText(
  reader: 'customer' | 'lawyer',
  application: Pick<Application, 'status' | 'independentAdvice' | 'files'>,
): string | null {
  const words = reader === 'customer' ? forClient : forLawyer;
  if (application.status === 'providerAccepted') {
    if (!awaitsIndependentAdvice(application)) return words.certificateReceived;
    if (!hasContractDocuments(application)) return words.documentsComing;
  }
  return words[application.status] ?? null;
}

type Words = Partial<Record<ApplicationStatus, string>> & { certificateReceived: string; documentsComing: string };

const forClient: Words = {
  created: 'Your application is not finished yet. Once every step is complete and it is submitted, the provider will review it.',
  submitted:
    'Your application has been submitted. The provider will now review it, and you will receive an email once it has been accepted or rejected. There is nothing you need to do until then.',
  providerAccepted: `The provider has accepted your application. Next, please download the contract documents below and get independent legal advice on them (a fixed fee of ${INDEPENDENT_ADVICE_FEE}). Once the provider has received your solicitor's certificate of advice, your documents are prepared for you to sign.`,
  documentsComing: `The provider has accepted your application and is preparing your contract documents. They will appear here; you will then get independent legal advice on them (a fixed fee of ${INDEPENDENT_ADVICE_FEE}).`,
  certificateReceived:
    'Your certificate of independent advice has been received. The provider is preparing your documents for signing, and you will receive an email once they are ready.',
  esignPrepared:
    'Your certificate of independent advice has been received and your documents are being prepared for signing. You will receive an email once they are ready to sign.',
  customerNotified: "Your documents are ready. Press 'sign documents' to read and sign them; signing creates your loan.",
  esignComplete: 'You have signed the documents. Your loan is being created.',
  customerAccepted:
    'You have signed the documents and your loan has been created. When your lawyer requests a drawdown from it, you will be asked to approve it.',
  providerRejected: 'The provider has rejected your application. Your lawyer can tell you more.',
  customerRejected: 'You chose not to proceed with this application. Nothing more will happen with it.',
};

const forLawyer: Words = {
  created: 'The application is not finished yet. Once every step is complete and it is submitted, the provider will review it.',
  submitted:
    'The application has been submitted. The provider will now review it, and you and your client will receive an email once it has been accepted or rejected.',
  providerAccepted:
    "The provider has accepted the application. Your client now gets independent legal advice on the contract documents; once the provider has received the certificate of advice, your client's documents are prepared for signing.",
  documentsComing:
    'The provider has accepted the application and is preparing the contract documents. Your client then gets independent legal advice on them.',
  certificateReceived:
    "Your client's certificate of independent advice has been received. The provider is preparing the documents for your client to sign.",
  esignPrepared:
    "Your client's certificate of independent advice has been received. The provider is preparing the documents for your client to sign.",
  customerNotified: 'Your client has been asked to sign the documents. A loan is created once they have signed.',
  esignComplete: 'Your client has signed the documents. The loan is being created.',
  customerAccepted: 'Your client has signed the documents. A loan has been created for this application.',
  providerRejected: 'The provider has rejected the application.',
  customerRejected: 'Your client chose not to proceed with this application.',
};
