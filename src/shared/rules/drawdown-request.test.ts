import { describe, expect, it } from 'vitest';
import { drawdownAmountCode, drawdownRequestCodes, loanAmountCode } from './drawdown-request';

describe('the amount checks (spec section 5)', () => {
  it('answers in the spec’s order', () => {
    expect(drawdownAmountCode(undefined)).toBe('required');
    expect(drawdownAmountCode('')).toBe('required');
    expect(drawdownAmountCode(-0.01)).toBe('positive');
    expect(drawdownAmountCode(0)).toBe('greaterThanZero');
    expect(drawdownAmountCode('0.00')).toBe('greaterThanZero');
    expect(drawdownAmountCode(1.001)).toBe('pence');
    expect(drawdownAmountCode(2e9)).toBe('amountTooLarge');
    expect(drawdownAmountCode(100.01, { availablePence: 10_000, awaitingSignaturePence: 0 })).toBe('exceedsCredit');
    expect(drawdownAmountCode(100, { availablePence: 10_000, awaitingSignaturePence: 0 })).toBeUndefined();
    expect(drawdownAmountCode(0.3, { availablePence: 30, awaitingSignaturePence: 0 })).toBeUndefined();
  });

  it('never lets a loan amount fall below what has been drawn', () => {
    expect(loanAmountCode(4_000, 400_001)).toBe('belowDrawdowns');
    expect(loanAmountCode(4_000.01, 400_001)).toBeUndefined();
    expect(loanAmountCode(0, 0)).toBe('greaterThanZero');
  });
});

describe('drawdownRequestCodes', () => {
  const credit = { availablePence: 10_000, awaitingSignaturePence: 0 };
  const today = new Date('2026-11-25T12:00:00Z');
  const complete = {
    amount: 100,
    invoiceNumber: 'INV-1',
    stageOfCase: 'First appointment',
    materialChanges: false,
    nextHearingDate: '14/03/2027',
    finalOrderDate: '30/09/2027',
    reaplyAssets: 'House',
    expectedRepaymentDate: '31/12/2027',
    lawyerDeclarations: {
      noMaterialChangeLegal: true,
      noMaterialChangeFinancial: true,
      noMaterialChangeMaterial: true,
      settlementSufficient: false,
      currentLoanSufficient: true,
      solicitorNotified: true,
      obligationsCompiled: true,
    },
  };

  it('passes a complete request (a False statement needs no details)', () => {
    expect(drawdownRequestCodes(complete, credit, today)).toEqual({});
  });

  it('names each date that is not a real date to come, and the client’s repayment date when given', () => {
    expect(
      drawdownRequestCodes(
        {
          ...complete,
          nextHearingDate: '31/02/2027',
          finalOrderDate: '30/06/2020',
          expectedRepaymentDate: 'next spring',
          clientExpectedRepaymentDate: '2027-12-31',
        },
        credit,
        today,
      ),
    ).toEqual({
      nextHearingDate: 'noSuchDate',
      finalOrderDate: 'pastDate',
      expectedRepaymentDate: 'dateFormat',
      clientExpectedRepaymentDate: 'dateFormat',
    });
    expect(drawdownRequestCodes({ ...complete, clientExpectedRepaymentDate: ' ' }, credit, today)).toEqual({});
    expect(drawdownRequestCodes({ ...complete, finalOrderDate: '' }, credit, today)).toEqual({ finalOrderDate: 'required' });
  });

  it('names every missing field, the details of material changes, and each unanswered statement', () => {
    expect(
      drawdownRequestCodes(
        {
          ...complete,
          amount: null,
          invoiceNumber: ' ',
          materialChanges: true,
          lawyerDeclarations: { ...complete.lawyerDeclarations, solicitorNotified: null },
        },
        undefined,
        today,
      ),
    ).toEqual({
      amount: 'required',
      invoiceNumber: 'required',
      materialChangesDetails: 'required',
      'lawyerDeclarations.solicitorNotified': 'required',
    });
    expect(drawdownRequestCodes({ ...complete, materialChanges: null }, undefined, today).materialChanges).toBe('required');
  });
});
