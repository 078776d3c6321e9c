import { describe, expect, it } from 'vitest';
import {
  contractDocumentTypes,
  documentTypeLabels,
  documentTypes,
  envelopeDocumentTypes,
  isStaffOnlyDocumentType,
  staffOnlyDocumentTypes,
} from './document-types';

describe('document types', () => {
  it('lists the eight types of the spec in its order, with its labels', () => {
    expect(documentTypes).toEqual([
      'formE',
      'secci',
      'loanAgreement',
      'assignmentAgreement',
      'termsAndConditions',
      'preContractExplanations',
      'instructionsToSolicitorsLetter',
      'solicitorLetter',
    ]);
    expect(documentTypeLabels.solicitorLetter).toBe('Certificate of Advice');
    expect(documentTypeLabels.instructionsToSolicitorsLetter).toBe('Irrevocable Letter of Instruction');
  });

  it('has six contract documents, two staff-only types and five documents in the envelope', () => {
    expect(contractDocumentTypes).toHaveLength(6);
    expect(staffOnlyDocumentTypes).toEqual(['solicitorLetter', 'instructionsToSolicitorsLetter']);
    expect(envelopeDocumentTypes).toEqual([
      'secci',
      'loanAgreement',
      'assignmentAgreement',
      'termsAndConditions',
      'preContractExplanations',
    ]);
    expect(isStaffOnlyDocumentType('solicitorLetter')).toBe(true);
    expect(isStaffOnlyDocumentType('formE')).toBe(false);
  });
});
