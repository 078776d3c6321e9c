import { describe, expect, it } from 'vitest';
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
