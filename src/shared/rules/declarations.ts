/** The statements a lawyer and a client declare on a drawdown, by key, with their words (the spec names them by key only, docs/decisions.md 263). */

export const lawyerDeclarationKeys = [
  'noMaterialChangeLegal',
  'noMaterialChangeFinancial',
  'noMaterialChangeMaterial',
  'settlementSufficient',
  'currentLoanSufficient',
  'solicitorNotified',
  'obligationsCompiled',
] as const;

export type LawyerDeclarationKey = (typeof lawyerDeclarationKeys)[number];

/** The lawyer's seven statements, each answered True or False (with details when False). */
export const lawyerDeclarationLabels: Record<LawyerDeclarationKey, string> = {
  noMaterialChangeLegal: 'There has been no material change in the legal merits of the case since the last update.',
  noMaterialChangeFinancial: "There has been no material change in the client's financial circumstances since the last update.",
  noMaterialChangeMaterial: 'There has been no other material change affecting the case or the loan since the last update.',
  settlementSufficient: 'The expected settlement is sufficient to repay the loan, including this drawdown.',
  currentLoanSufficient: 'The credit available on the current loan is sufficient to take the case to its conclusion.',
  solicitorNotified: "The client's independent solicitor has been told about this drawdown request.",
  obligationsCompiled: 'I have complied with my obligations under the loan agreement and the letter of instruction.',
};

/** The label of the box that explains a False answer. */
export const declarationDetailsLabel = 'Please give details';

export const clientDeclarationKeys = [
  'satisfiedWithService',
  'satisfiedWithSolicitorFee',
  'approvalToPayAmount',
  'compliedWithTNC',
  'confirmLoanBalance',
] as const;

export type ClientDeclarationKey = (typeof clientDeclarationKeys)[number];

/** The client's five statements (all must be True to approve a drawdown). */
export const clientDeclarationLabels: Record<ClientDeclarationKey, string> = {
  satisfiedWithService: 'I am satisfied with the service my lawyer has provided.',
  satisfiedWithSolicitorFee: "I am satisfied with my lawyer's fees that this drawdown pays.",
  approvalToPayAmount: 'I approve the payment of this drawdown amount to my lawyer.',
  compliedWithTNC: 'I have complied with the terms and conditions of my loan agreement.',
  confirmLoanBalance: 'I confirm the loan balance, including this drawdown.',
};
