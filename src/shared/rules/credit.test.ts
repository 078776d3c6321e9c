import { describe, expect, it } from 'vitest';
import {
  creditAvailablePence,
  creditAwaitingSignaturePence,
  creditLimit,
  drawdownCreditCode,
  facilityChange,
  type LoanFacility,
} from './credit';
import { drawdownAmountCode } from './drawdown-request';

// £30,000 signed, £35,000 waiting for the client's signature, £10,000.10 drawn.
const raised: LoanFacility = { signedPence: 3_000_000, pendingPence: 3_500_000, drawnPence: 1_000_010 };

describe('the credit a loan offers', () => {
  it('is the signed facility less what is drawn; the pending variation adds nothing until signed', () => {
    expect(creditAvailablePence(raised)).toBe(1_999_990);
    expect(creditAwaitingSignaturePence(raised)).toBe(500_000);
    expect(creditLimit(raised)).toEqual({ availablePence: 1_999_990, awaitingSignaturePence: 500_000 });
    expect(creditLimit({ ...raised, pendingPence: null })).toEqual({ availablePence: 1_999_990, awaitingSignaturePence: 0 });
    // Drawn above a facility lowered (or restated) meanwhile: nothing left, never a negative wait.
    expect(creditAvailablePence({ signedPence: 100, drawnPence: 250 })).toBe(-150);
  });

  it('lets a drawdown within the signed credit, says a larger one waits for the signature, and beyond both exceeds', () => {
    const limit = creditLimit(raised);
    expect(drawdownCreditCode(1_999_990, limit)).toBeUndefined();
    expect(drawdownCreditCode(1_999_991, limit)).toBe('exceedsSignedCredit');
    expect(drawdownCreditCode(2_499_990, limit)).toBe('exceedsSignedCredit');
    expect(drawdownCreditCode(2_499_991, limit)).toBe('exceedsCredit');
    expect(drawdownCreditCode(1_999_991, creditLimit({ ...raised, pendingPence: null }))).toBe('exceedsCredit');
    // The form's amount check runs the same rule.
    expect(drawdownAmountCode('20000', limit)).toBe('exceedsSignedCredit');
    expect(drawdownAmountCode('19999.90', limit)).toBeUndefined();
  });

  it('asks for a signature only above the signed facility', () => {
    expect(facilityChange(3_500_001, raised)).toBe('variation');
    // Between signed and pending: still above what was signed, a new variation replaces the old.
    expect(facilityChange(3_200_000, raised)).toBe('variation');
    expect(facilityChange(3_000_000, raised)).toBe('lower');
    expect(facilityChange(2_000_000, raised)).toBe('lower');
    expect(facilityChange(3_000_000, { ...raised, pendingPence: null })).toBe('unchanged');
    expect(facilityChange(2_999_999, { ...raised, pendingPence: null })).toBe('lower');
  });
});
