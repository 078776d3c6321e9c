import type { components } from '../api/schema';

export type DocumentType = components['schemas']['DocumentType'];

/** The document types in the spec's order, with the names it gives them (section 3). */
export const documentTypeLabels: Record<DocumentType, string> = {
  formE: 'Form E',
  secci: 'Pre-Contract Credit Information',
  loanAgreement: 'Credit Agreement',
  assignmentAgreement: 'Assignment Agreement',
  termsAndConditions: 'Terms and Conditions',
  preContractExplanations: 'Pre-Contractual Explanations',
  instructionsToSolicitorsLetter: 'Irrevocable Letter of Instruction',
  solicitorLetter: 'Certificate of Advice',
};

export const documentTypeOrder = Object.keys(documentTypeLabels) as DocumentType[];

/**
 * The contract documents the client reviews with their independent solicitor and signs (decision
 * 306): every type but Form E (the client's own) and the two the server shows to staff only.
 */
export const contractDocumentTypes: readonly DocumentType[] = [
  'secci',
  'loanAgreement',
  'assignmentAgreement',
  'termsAndConditions',
  'preContractExplanations',
];
