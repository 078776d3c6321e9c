import * as v from 'valibot';
import { TEXT_MAX_LENGTH } from '../rules/limits';
import { MONEY_MAX_POUNDS } from '../rules/money';
import { emailSchema, isPhoneNumber } from './account';

/**
 * The administration forms (spec section 5): firms, lawyers, solicitors and clients. The
 * messages are error codes (src/shared/rules/error-codes.ts); the same schemas check the forms
 * and, again, the server (which answers 400 {error: 'validation', fields: {field: code}}).
 */

/** Required free text: trimmed, not empty. */
const requiredText = v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.maxLength(TEXT_MAX_LENGTH, 'tooLong'));
/** Optional free text (an address part): trimmed; may be empty. */
const optionalText = v.pipe(v.string('invalid'), v.trim(), v.maxLength(TEXT_MAX_LENGTH, 'tooLong'));
const phone = v.pipe(requiredText, v.check(isPhoneNumber, 'phone'));

// ── firms ──
export const firmCreateSchema = v.object({
  firmName: requiredText,
  firstName: requiredText,
  surname: requiredText,
  login: emailSchema,
});
export type FirmCreateInput = v.InferOutput<typeof firmCreateSchema>;

/** The admin's login is not editable (spec section 3), so it is not part of an update. */
export const firmUpdateSchema = v.object({
  firmName: v.optional(requiredText),
  firstName: v.optional(requiredText),
  surname: v.optional(requiredText),
});
export type FirmUpdateInput = v.InferOutput<typeof firmUpdateSchema>;

// ── lawyers ──
export const lawyerCreateSchema = v.object({ firstName: requiredText, surname: requiredText, login: emailSchema });
export type LawyerCreateInput = v.InferOutput<typeof lawyerCreateSchema>;

/** Login is read-only after creation. */
export const lawyerUpdateSchema = v.object({ firstName: v.optional(requiredText), surname: v.optional(requiredText) });
export type LawyerUpdateInput = v.InferOutput<typeof lawyerUpdateSchema>;

// ── solicitors ──
export const solicitorAddressParts = ['postcode', 'address', 'house', 'street', 'city'] as const;

/** At least one part must be given (spec section 5); empty parts are dropped. */
export const solicitorAddressSchema = v.pipe(
  v.object(
    {
      postcode: v.optional(optionalText),
      address: v.optional(optionalText),
      house: v.optional(optionalText),
      street: v.optional(optionalText),
      city: v.optional(optionalText),
    },
    'required',
  ),
  v.transform(
    (address) =>
      Object.fromEntries(Object.entries(address).filter(([, part]) => part)) as Partial<
        Record<(typeof solicitorAddressParts)[number], string>
      >,
  ),
  v.check((address) => Object.keys(address).length > 0, 'required'),
);

/** Pounds with at most two decimals (stored as pence). */
export const feeSchema = v.pipe(
  v.number('required'),
  v.finite('invalid'),
  v.minValue(0, 'positive'),
  v.maxValue(MONEY_MAX_POUNDS, 'amountTooLarge'),
  v.check((pounds) => Math.abs(pounds * 100 - Math.round(pounds * 100)) < 1e-6, 'invalid'),
);

export const solicitorCreateSchema = v.object({
  name: requiredText,
  address: solicitorAddressSchema,
  contactNumber: phone,
  email: emailSchema,
  fee: feeSchema,
  deliveryMethod: requiredText,
});
export type SolicitorCreateInput = v.InferOutput<typeof solicitorCreateSchema>;

/** Email is read-only on update. */
export const solicitorUpdateSchema = v.object({
  name: v.optional(requiredText),
  address: v.optional(solicitorAddressSchema),
  contactNumber: v.optional(phone),
  fee: v.optional(feeSchema),
  deliveryMethod: v.optional(requiredText),
});
export type SolicitorUpdateInput = v.InferOutput<typeof solicitorUpdateSchema>;

// ── clients ──
/** A real calendar date (YYYY-MM-DD), not in the future. */
function isPastIsoDate(value: string, today = new Date()): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
  return value <= today.toISOString().slice(0, 10);
}

const birthDay = v.nullable(
  v.pipe(
    v.string('date'),
    v.isoDate('date'),
    v.check(
      (value) =>
        !Number.isNaN(new Date(`${value}T00:00:00Z`).getTime()) &&
        new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value,
      'date',
    ),
    v.check((value) => isPastIsoDate(value), 'futureDate'),
  ),
);

/** Email is read-only (disabled on the form). */
export const clientUpdateSchema = v.object({
  firstName: v.optional(requiredText),
  lastName: v.optional(requiredText),
  contactNumber: v.optional(phone),
  birthDay: v.optional(birthDay),
});
export type ClientUpdateInput = v.InferOutput<typeof clientUpdateSchema>;
