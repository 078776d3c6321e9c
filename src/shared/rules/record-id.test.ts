import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { isRecordId, parseRecordId, RECORD_ID_MAX, recordIdSchema } from './record-id';

describe('record ids', () => {
  it('reads canonical decimals from 1 to 2147483647', () => {
    expect(parseRecordId('1')).toBe(1);
    expect(parseRecordId('42')).toBe(42);
    expect(parseRecordId('2147483647')).toBe(RECORD_ID_MAX);
  });

  it('refuses anything else', () => {
    for (const text of ['', '0', '007', '-1', '+1', ' 1', '1 ', '1.0', '1e3', '0x10', '2147483648', '99999999999', 'abc'])
      expect(parseRecordId(text)).toBeNull();
    expect(parseRecordId(undefined)).toBeNull();
    expect(parseRecordId(null)).toBeNull();
  });

  it('tells a record id among values', () => {
    expect(isRecordId(1)).toBe(true);
    expect(isRecordId(RECORD_ID_MAX)).toBe(true);
    for (const value of [0, -1, 1.5, RECORD_ID_MAX + 1, Number.NaN, '1', null]) expect(isRecordId(value)).toBe(false);
  });

  it('checks a form value with the field code invalid', () => {
    expect(v.safeParse(recordIdSchema, 5).success).toBe(true);
    const refused = v.safeParse(recordIdSchema, RECORD_ID_MAX + 1);
    expect(refused.success).toBe(false);
    expect(refused.issues?.[0]?.message).toBe('invalid');
  });
});
