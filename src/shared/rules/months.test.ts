import { describe, expect, it } from 'vitest';
import { monthName, monthNames } from './months';

describe('month names', () => {
  it('names months 1 to 12 and nothing else', () => {
    expect(monthNames).toHaveLength(12);
    expect(monthName(1)).toBe('January');
    expect(monthName(12)).toBe('December');
    expect(monthName(0)).toBe('');
    expect(monthName(13)).toBe('');
  });
});
