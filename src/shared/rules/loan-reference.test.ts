import { describe, expect, it } from 'vitest';
import { loanIdOfReference, loanReference } from './loan-reference';

describe('the loan reference', () => {
  it('is LFAMA and the number padded to five digits, and is found again in a search', () => {
    expect(loanReference(12)).toBe('LFAMA00012');
    expect(loanReference(123_456)).toBe('LFAMA123456');
    expect(loanIdOfReference(' lfama00012 ')).toBe(12);
    expect(loanIdOfReference('LFAMA')).toBeUndefined();
    expect(loanIdOfReference('Smith')).toBeUndefined();
  });
});
