import type { components } from '../api/schema';

/**
 * The application's document types (spec applications-and-access section 3), in the spec's order,
 * with their labels. Read by the server's files policy, the review and e-signature services, and
 * the screens.
 */
export type DocumentType = components['schemas']['DocumentType'];

export const documentTypeLabels = {
  formE: 'Form E',
  secci: 'Pre-Contract Credit Information',
  loanAgreement: 'Credit Agreement',
  assignmentAgreement: 'Assignment Agreement',
  termsAndConditions: 'Terms and Conditions',
  preContractExplanations: 'Pre-Contractual Explanations',
  instructionsToSolicitorsLetter: 'Irrevocable Letter of Instruction',
  solicitorLetter: 'Certificate of Advice',
} as const satisfies Record<DocumentType, string>;

export const documentTypes = Object.keys(documentTypeLabels) as DocumentType[];

/**
 * The six contract documents the provider prepares for the loan (spec section 9: "six documents
 * are used for independent legal advice").
 */
export const contractDocumentTypes = [
  'secci',
  'loanAgreement',
  'assignmentAgreement',
  'termsAndConditions',
  'preContractExplanations',
  'instructionsToSolicitorsLetter',
] as const satisfies readonly DocumentType[];

/**
 * The two types hidden from every role but the provider's staff (spec section 2: "two file types
 * are hidden from non-admin roles"; docs/decisions.md 271). The Certificate of Advice is the
 * independent solicitor's certificate to the provider, kept from the client's own lawyer so that
 * the advice stays independent; the Irrevocable Letter of Instruction is the provider's letter to
 * the solicitors, sent by staff once the loan exists. Lawyer, firm and client never see them:
 * not in the record's files, the documents list or a download (404), and they may not upload or
 * delete them (403).
 */
export const staffOnlyDocumentTypes = [
  'solicitorLetter',
  'instructionsToSolicitorsLetter',
] as const satisfies readonly DocumentType[];

/** The contract documents the client signs in the envelope: the six less the staff-only letter. */
export const envelopeDocumentTypes: readonly DocumentType[] = contractDocumentTypes.filter(
  (type) => !(staffOnlyDocumentTypes as readonly DocumentType[]).includes(type),
);

export function isStaffOnlyDocumentType(type: string): boolean {
  return (staffOnlyDocumentTypes as readonly string[]).includes(type);
}

/** The Certificate of Advice: 'Certificate of independent advice uploaded' may be ticked only once one is uploaded. */
export const certificateOfAdviceType = 'solicitorLetter' satisfies DocumentType;

export type ContractDocumentType = (typeof contractDocumentTypes)[number];

/** The independent legal advice's fixed fee (spec section 9: £250 plus VAT), in pence, before VAT. */
export const INDEPENDENT_ADVICE_FEE_PENCE = 25_000;
/** UK standard VAT, 20% (docs/decisions.md: 282). */
export const VAT_RATE_PERCENT = 20;

/**
 * A contract document's title; a variation's agreement is titled as one (docs/decisions.md, 507), so
 * neither its reader nor its certificate page mistakes it for the agreement first signed.
 */
export function contractDocumentTitle(type: DocumentType, variation: boolean): string {
  return variation ? `${documentTypeLabels[type]} (variation)` : documentTypeLabels[type];
}
