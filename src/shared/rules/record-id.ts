import * as v from 'valibot';

/** The id of a stored record: a PostgreSQL integer from 1 up (openapi `RecordId`). */
export const RECORD_ID_MAX = 2_147_483_647;

/** Canonical decimal only: no sign, no leading zero, no spaces, no exponent; at most ten digits. */
const RECORD_ID_PATTERN = /^[1-9][0-9]{0,9}$/;

export function isRecordId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= RECORD_ID_MAX;
}

/** The record id written in an address or a form field, or null when the text cannot be one ('0x10', '1e3', '007'). */
export function parseRecordId(value: string | null | undefined): number | null {
  if (typeof value !== 'string' || !RECORD_ID_PATTERN.test(value)) return null;
  const id = Number(value);
  return id <= RECORD_ID_MAX ? id : null;
}

/** A record id in a checked form or journey; the message is the field code. */
export const recordIdSchema = v.pipe(
  v.number('invalid'),
  v.integer('invalid'),
  v.minValue(1, 'invalid'),
  v.maxValue(RECORD_ID_MAX, 'invalid'),
);
