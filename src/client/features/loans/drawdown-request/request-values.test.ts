import { describe, expect, it } from 'vitest';
import {
  emptyRequest,
  filledFields,
  formPathOf,
  fromWire,
  parseRequestDraft,
  requestCodes,
  toWire,
  type RequestValues,
} from './request-values';

const complete: RequestValues = {
  ...emptyRequest(),
  amount: '250.5',
  invoiceNumber: ' INV-9 ',
  stageOfCase: 'Trial',
  materialChanges: true,
  materialChangesDetails: 'New expert report',
  nextHearingDate: '01/02/2040',
  finalOrderDate: '01/06/2040',
  reaplyAssets: 'Pension',
  expectedRepaymentDate: '01/09/2040',
  declarations: {
    noMaterialChangeLegal: false,
    noMaterialChangeFinancial: true,
    noMaterialChangeMaterial: true,
    settlementSufficient: true,
    currentLoanSufficient: true,
    solicitorNotified: true,
    obligationsCompiled: true,
  },
  declarationDetails: {
    ...emptyRequest().declarationDetails,
    noMaterialChangeLegal: 'Liability now disputed',
    settlementSufficient: 'ignored',
  },
};

describe('drawdown request values', () => {
  it('checks the amount against the credit available in pence', () => {
    expect(requestCodes({ ...complete, amount: '' }, 100).amount).toBe('required');
    expect(requestCodes({ ...complete, amount: '0' }, 100).amount).toBe('greaterThanZero');
    expect(requestCodes({ ...complete, amount: '0.00' }, 100).amount).toBe('greaterThanZero');
    expect(requestCodes({ ...complete, amount: '-1' }, 100).amount).toBe('positive');
    expect(requestCodes({ ...complete, amount: '100.01' }, 100).amount).toBe('exceedsCredit');
    // 0.1 + 0.2 style drift never refuses an amount exactly equal to the credit.
    expect(requestCodes({ ...complete, amount: '0.3' }, 0.1 + 0.2).amount).toBeUndefined();
    expect(requestCodes(complete, 250.5)).toEqual({});
  });

  it('requires every field, the details of material changes, and every statement', () => {
    const codes = requestCodes({ ...emptyRequest(), materialChanges: true }, 100);
    expect(codes).toMatchObject({
      amount: 'required',
      invoiceNumber: 'required',
      materialChangesDetails: 'required',
      'declarations.noMaterialChangeLegal': 'required',
      'declarations.obligationsCompiled': 'required',
    });
    expect(codes.materialChanges).toBeUndefined();
    expect(requestCodes(emptyRequest(), 100).materialChanges).toBe('required');
  });

  it('sends numbers and booleans, details only for a False statement, trimmed', () => {
    const wire = toWire(complete, 12);
    expect(wire.amount).toBe(250.5);
    expect(wire.applicationId).toBe(12);
    expect(wire.invoiceNumber).toBe('INV-9');
    expect(wire.materialChangesDetails).toBe('New expert report');
    expect(wire.lawyerDeclarations).toMatchObject({
      noMaterialChangeLegal: false,
      noMaterialChangeLegalDetails: 'Liability now disputed',
    });
    expect(wire.lawyerDeclarations).not.toHaveProperty('settlementSufficientDetails');
    expect(toWire({ ...complete, materialChanges: false }, 12)).not.toHaveProperty('materialChangesDetails');
  });

  it('reads back what it sent, and a stored draft of any shape', () => {
    const back = fromWire(toWire(complete, 12));
    expect(back.declarations).toEqual(complete.declarations);
    expect(back.declarationDetails.noMaterialChangeLegal).toBe('Liability now disputed');
    expect(back.invoiceNumber).toBe('INV-9');
    expect(parseRequestDraft({ amount: '5' })).toMatchObject({ amount: '5', invoiceNumber: '', materialChanges: null });
    expect(parseRequestDraft({ amount: '5' })?.declarations.solicitorNotified).toBeNull();
    expect(parseRequestDraft('nonsense')).toBeNull();
    expect(parseRequestDraft({ amount: 5 })).toBeNull();
  });

  it('checks the dates as the server does: real, DD/MM/YYYY, not past', () => {
    expect(
      requestCodes(
        { ...complete, nextHearingDate: '31/02/2041', finalOrderDate: '01/01/2020', expectedRepaymentDate: 'next spring' },
        300,
      ),
    ).toEqual({ nextHearingDate: 'noSuchDate', finalOrderDate: 'pastDate', expectedRepaymentDate: 'dateFormat' });
  });

  it('keeps a draft whose dates were typed as free text before, and shows their messages at once', () => {
    const old = parseRequestDraft({ ...complete, nextHearingDate: 'next spring', finalOrderDate: '' });
    expect(old?.nextHearingDate).toBe('next spring');
    expect(requestCodes(old!, 300).nextHearingDate).toBe('dateFormat');
    const touched = filledFields(old!);
    expect(touched.has('nextHearingDate')).toBe(true);
    expect(touched.has('finalOrderDate')).toBe(false);
  });

  it("puts the server's declaration codes on the form's fields", () => {
    expect(formPathOf('amount')).toBe('amount');
    expect(formPathOf('lawyerDeclarations.solicitorNotified')).toBe('declarations.solicitorNotified');
    expect(formPathOf('lawyerDeclarations.solicitorNotifiedDetails')).toBe('declarationDetails.solicitorNotified');
  });
});
