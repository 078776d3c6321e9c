import { describe, expect, it } from 'vitest';
import { drawdownAmountCode, drawdownRequestCodes, loanAmountCode } from './drawdown-request';
import { loanIdOfReference, loanReference } from './loan-reference';
import { poundsLess, toPence, toPounds, wirePence } from './money';

describe('toPence', () => {
  it('reads pounds with pence exactly, as numbers and as typed', () => {
    expect(toPence(2500.1)).toBe(250_010);
    expect(toPence('2500.10')).toBe(250_010);
    expect(toPence(0.29)).toBe(29);
    expect(toPence('.5')).toBe(50);
    expect(toPence(-3.2)).toBe(-320);
    expect(toPence(0)).toBe(0);
  });

  it('refuses a third decimal, a float sum that is not whole pence, and what is not an amount', () => {
    expect(toPence(0.1 + 0.2)).toBeUndefined();
    expect(toPence(10.001)).toBeUndefined();
    expect(toPence('1e3')).toBeUndefined();
    expect(toPence(Number.NaN)).toBeUndefined();
    expect(toPence(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(toPence('12,50')).toBeUndefined();
    expect(toPence(2e9)).toBeUndefined();
  });

  it('gives pounds back without drift, and subtracts server figures in pence', () => {
    expect(toPounds(250_010)).toBe(2500.1);
    expect(wirePence(toPounds(30))).toBe(30);
    expect(poundsLess(50_000, 2_500.4)).toBe(47_499.6);
    expect(poundsLess(0.3, 0.1)).toBe(0.2);
  });
});

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

describe('the loan reference', () => {
  it('is LFAMA and the number padded to five digits, and is found again in a search', () => {
    expect(loanReference(12)).toBe('LFAMA00012');
    expect(loanReference(123_456)).toBe('LFAMA123456');
    expect(loanIdOfReference(' lfama00012 ')).toBe(12);
    expect(loanIdOfReference('LFAMA')).toBeUndefined();
    expect(loanIdOfReference('Smith')).toBeUndefined();
  });
});
