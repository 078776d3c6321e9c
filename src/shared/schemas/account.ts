import * as v from 'valibot';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../rules/limits';

/**
 * Account forms. The messages here are error codes (src/shared/rules/error-codes.ts);
 * the same schemas validate the forms and, again, the server.
 */

/** A standard email pattern: something@something.tld, no spaces and no control characters. */
export const EMAIL_PATTERN = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

export const emailSchema = v.pipe(
  v.string('required'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(EMAIL_MAX_LENGTH, 'email'),
  v.regex(EMAIL_PATTERN, 'email'),
  v.toLowerCase(),
);

/**
 * Password policy (spec section 5): at least 8 characters, no spaces, an uppercase letter,
 * a lowercase letter and a digit. A failing password is marked 'empty': the form shows the
 * hint rather than a message.
 */
const passwordSchema = v.pipe(
  v.string('empty'),
  v.minLength(PASSWORD_MIN_LENGTH, 'empty'),
  v.maxLength(PASSWORD_MAX_LENGTH, 'empty'),
  v.regex(/^\S*$/, 'empty'),
  v.regex(/[A-Z]/, 'empty'),
  v.regex(/[a-z]/, 'empty'),
  v.regex(/[0-9]/, 'empty'),
);

/** Sign-in checks only presence: the policy may have changed since the password was set. */
export const signInSchema = v.object({
  login: emailSchema,
  password: v.pipe(v.string('required'), v.nonEmpty('required'), v.maxLength(PASSWORD_MAX_LENGTH, 'empty')),
});
export type SignInInput = v.InferOutput<typeof signInSchema>;

export const signUpSchema = v.object({
  login: emailSchema,
  password: passwordSchema,
});

export const resetRequestSchema = v.object({ login: emailSchema });

export const passwordUpdateSchema = v.object({ login: emailSchema, password: passwordSchema });

/** Flattens valibot issues into the wire's field → code map (first issue per field wins). */
export function fieldCodes(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path?.map((p) => String(p.key)).join('.') ?? '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

/**
 * A phone number as people type it: an optional leading +, then digits with spaces, brackets,
 * dots or dashes; 7 to 15 digits in all (E.164 allows at most 15). The one rule of every phone
 * field: the journey's contact number and the administration forms.
 */
const PHONE_PATTERN = /^\+?[0-9 ().-]+$/;
const PHONE_MIN_DIGITS = 7;
const PHONE_MAX_DIGITS = 15;

export function isPhoneNumber(value: string): boolean {
  const digits = value.replace(/\D/g, '').length;
  return PHONE_PATTERN.test(value) && digits >= PHONE_MIN_DIGITS && digits <= PHONE_MAX_DIGITS;
}
