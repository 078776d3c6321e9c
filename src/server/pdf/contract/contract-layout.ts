import { PdfWriter } from '../document';
import { contractDocumentTitle, contractDocumentTypes, type ContractDocumentType } from '../../../shared/rules/document-types';
import { formatMoney } from '../../../shared/rules/formats';
import { providerRoleStatement } from '../../../shared/rules/provider-identity';
import { toPounds } from '../../../shared/rules/money';
import type { ContractData } from './contract-data';

/**
 * The contract set's layout (docs/decisions.md: 280): one PDF per document type, each naming the
 * parties, the case and the figures from the application. The legal wording is the demo's own; a
 * provider replaces it with its approved texts, keeping the same data.
 */
export async function layoutContractSet(data: ContractData): Promise<Uint8Array[]> {
  if (data.variation) return [await layoutContractDocument('loanAgreement', data)];
  const pdfs: Uint8Array[] = [];
  for (const type of contractDocumentTypes) pdfs.push(await layoutContractDocument(type, data));
  return pdfs;
}

const money = (pence: number) => formatMoney(toPounds(pence));

/** The provider's identity as the footer and the emails state it (the same words on every document). */
const identity = (data: ContractData) => ({
  companyName: data.provider.name,
  providerRole: data.provider.role,
  lenderName: data.provider.lender.name,
});

function clientName(data: ContractData): string {
  return [data.client.title, data.client.firstName, data.client.lastName].filter(Boolean).join(' ');
}

function adviceFee(data: ContractData): string {
  const fee = data.adviceFee;
  return `${money(fee.netPence)} plus VAT at ${fee.vatRatePercent}% (${money(fee.vatPence)}), ${money(fee.grossPence)} in total`;
}

function solicitorText(data: ContractData): string {
  return 'own' in data.solicitor
    ? "The client's own solicitor, as named in the certificate of independent advice"
    : `${data.solicitor.name}, ${data.solicitor.address}`;
}

/**
 * The lender: the provider itself, or the lender it brokers for (PROVIDER_ROLE; docs/decisions.md
 * 495-497). The provider, whichever its role, is who the borrower contacts.
 */
const lender = (data: ContractData) => data.provider.lender;

function parties(w: PdfWriter, data: ContractData): void {
  const p = data.provider;
  w.heading('Parties');
  w.row('Lender', `${lender(data).name}, ${lender(data).address}`);
  w.row('Company number', lender(data).companyNumber);
  w.row('Regulator reference', lender(data).regulatorReference);
  if (p.role === 'broker') {
    w.row('Credit broker', `${p.name}, ${p.address}`);
    w.row("Credit broker's company number", p.companyNumber);
    w.row("Credit broker's regulator reference", p.regulatorReference);
  }
  w.row(p.role === 'lender' ? 'Lender contact' : 'Contact (the credit broker)', `${p.phone}, ${p.email}`);
  w.row('Borrower', clientName(data));
  w.row("Borrower's address", data.client.address);
  w.row("Borrower's email", data.client.email);
}

function caseRows(w: PdfWriter, data: ContractData): void {
  w.heading('The case');
  w.row('Application', data.applicationRef);
  w.row('Case reference', data.caseRef);
  w.row("Borrower's solicitors conducting the case", `${data.lawyer.firm} (${data.lawyer.name})`);
  w.row('Independent legal adviser', solicitorText(data));
}

function signatureBlock(w: PdfWriter, data: ContractData): void {
  w.heading('Signature');
  w.paragraph(
    `Signed electronically by ${clientName(data)} through the ${data.productName}. The signature, its time and the ` +
      "signer's details are recorded on the certificate page that is added to this document when it is signed.",
  );
}

/** What a variation changes, and what it leaves as it was (docs/decisions.md, 507). */
function variationTerms(w: PdfWriter, data: ContractData, variation: NonNullable<ContractData['variation']>): void {
  w.heading('Variation');
  w.row('Loan', variation.loanReference);
  w.row('Loan facility until this variation is signed', money(variation.previousAmountPence));
  w.row('Loan facility once it is signed', money(data.loanAmountPence));
  w.paragraph(
    `This agreement varies the Credit Agreement of loan ${variation.loanReference}: it makes the loan facility ` +
      `${money(data.loanAmountPence)} instead of ${money(variation.previousAmountPence)}. The amounts already drawn stay ` +
      'owed as they are, and every other term of the Credit Agreement, the Assignment Agreement, the Terms and ' +
      'Conditions and the Irrevocable Letter of Instruction applies to the whole facility. Until the borrower signs ' +
      `this variation, no more than ${money(variation.previousAmountPence)} may be drawn.`,
  );
}

const writers: Record<ContractDocumentType, (w: PdfWriter, data: ContractData) => void> = {
  secci(w, data) {
    w.paragraph(
      'This form gives you information about the credit before you enter into the agreement. Please read it carefully and keep a copy.',
    );
    parties(w, data);
    w.heading('Key features of the credit');
    w.row('Type of credit', 'Litigation funding loan, drawn down in stages to pay the legal fees of the case');
    w.row('Total amount of credit', money(data.loanAmountPence));
    w.row(
      'How and when credit is provided',
      'Drawdowns requested by your solicitors and approved by you, up to the total amount of credit',
    );
    w.row('Repayment', 'From the proceeds of the settlement or order in the case, as set out in the Credit Agreement');
    w.row('Independent legal advice fee', adviceFee(data));
    caseRows(w, data);
    w.heading('Your rights');
    w.paragraph(
      'You have the right to withdraw from the credit agreement within 14 calendar days of signing it, without giving a reason. ' +
        `To withdraw, contact ${data.provider.name} on ${data.provider.phone} or at ${data.provider.email}.`,
    );
    w.paragraph(`Date of this information: ${data.date}.`);
  },
  loanAgreement(w, data) {
    w.paragraph(
      `This agreement is made on ${data.date} between ${lender(data).name} (the lender) and ${clientName(data)} (the borrower)` +
        (data.provider.role === 'broker' ? `, arranged by ${data.provider.name} (the credit broker).` : '.'),
    );
    parties(w, data);
    caseRows(w, data);
    if (data.variation) variationTerms(w, data, data.variation);
    w.heading('The credit');
    w.row('Total amount of credit (loan facility)', money(data.loanAmountPence));
    w.row('Independent legal advice fee', adviceFee(data));
    w.paragraph(
      `1. The lender makes available to the borrower a loan facility of ${money(data.loanAmountPence)} to pay the legal fees ` +
        `of the case ${data.caseRef}.`,
    );
    w.paragraph(
      '2. The borrower draws the facility in stages. Each drawdown is requested by the borrower’s solicitors, approved by the ' +
        'lender and then approved by the borrower, and is paid to the borrower’s solicitors.',
    );
    w.paragraph(
      '3. The borrower repays the amounts drawn, with the charges set out in the Terms and Conditions, from the proceeds of the ' +
        'case, under the Assignment Agreement and the Irrevocable Letter of Instruction signed with this agreement.',
    );
    w.paragraph(
      `4. The borrower confirms having received independent legal advice on this agreement; its fee is ${adviceFee(data)}.`,
    );
    w.paragraph('5. The borrower may withdraw from this agreement within 14 calendar days of signing it.');
    signatureBlock(w, data);
  },
  assignmentAgreement(w, data) {
    w.paragraph(`This assignment is made on ${data.date} in connection with the Credit Agreement of the same date.`);
    parties(w, data);
    caseRows(w, data);
    w.heading('Assignment');
    w.paragraph(
      `1. As security for the loan facility of ${money(data.loanAmountPence)}, the borrower assigns to the lender the right to ` +
        `receive from the proceeds of the case ${data.caseRef} the amounts owed under the Credit Agreement.`,
    );
    w.paragraph('2. The assignment ends once every amount owed under the Credit Agreement has been repaid.');
    signatureBlock(w, data);
  },
  termsAndConditions(w, data) {
    w.paragraph(`These terms apply to the Credit Agreement between ${lender(data).name} and ${clientName(data)}.`);
    parties(w, data);
    w.heading('Terms');
    w.paragraph(`1. The loan facility is ${money(data.loanAmountPence)}; it may be drawn in stages while the loan is open.`);
    w.paragraph('2. The lender or the borrower may block the loan; while it is blocked no drawdown is made.');
    w.paragraph('3. Amounts drawn are repaid from the proceeds of the case, as the Credit Agreement sets out.');
    w.paragraph(`4. The independent legal advice fee is ${adviceFee(data)}.`);
    w.paragraph(
      `5. ${lender(data).name} is registered under company number ${lender(data).companyNumber} (regulator reference ` +
        `${lender(data).regulatorReference}). ${providerRoleStatement(identity(data))} Questions and complaints: ` +
        `${data.provider.phone}, ${data.provider.email}.`,
    );
    signatureBlock(w, data);
  },
  preContractExplanations(w, data) {
    w.paragraph('These explanations help you decide whether the credit suits your needs. Please read them with your adviser.');
    parties(w, data);
    caseRows(w, data);
    w.heading('What you are agreeing to');
    w.paragraph(`- A loan facility of up to ${money(data.loanAmountPence)} to pay the legal fees of your case.`);
    w.paragraph('- Drawdowns are made only with your approval, and repaid from what you receive in the case.');
    w.paragraph(
      '- If the case ends with less than expected, the amounts drawn are still owed; your adviser explains what this means for you.',
    );
    w.paragraph(`- You must take independent legal advice before signing; its fee is ${adviceFee(data)}.`);
    w.paragraph(`Explanations given on ${data.date}.`);
    signatureBlock(w, data);
  },
  instructionsToSolicitorsLetter(w, data) {
    w.row('To', `${data.lawyer.firm}`);
    w.row('From', `${clientName(data)}, ${data.client.address}`);
    w.row('Date', data.date);
    w.row('Case reference', data.caseRef);
    w.heading('Irrevocable instruction');
    w.paragraph(
      `I irrevocably instruct you, as my solicitors in the case ${data.caseRef}, to pay to ${lender(data).name} ` +
        `(${lender(data).address}, company number ${lender(data).companyNumber}) from any money you receive for me in the ` +
        'case every amount I owe under my Credit Agreement with them, before paying any balance to me.',
    );
    w.paragraph(
      `My loan facility is ${money(data.loanAmountPence)}. ${data.provider.name} will confirm the amount owed on request ` +
        `(${data.provider.phone}, ${data.provider.email}).`,
    );
    w.paragraph('This instruction cannot be withdrawn without the written consent of the lender.');
    signatureBlock(w, data);
  },
};

export async function layoutContractDocument(type: ContractDocumentType, data: ContractData): Promise<Uint8Array> {
  const title = contractDocumentTitle(type, data.variation !== undefined);
  const w = await PdfWriter.create({
    title,
    author: data.provider.name,
    footer: `${title} - ${data.applicationRef} - ${data.caseRef}`,
    legal: providerRoleStatement(identity(data)),
  });
  w.title(title, `${data.provider.name} - ${data.applicationRef} - ${data.date}`);
  writers[type](w, data);
  return w.finish();
}
