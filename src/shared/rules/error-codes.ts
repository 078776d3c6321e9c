/**
 * Error codes cross the wire; the client turns them into the spec's exact words.
 * A field whose code is 'empty' shows no message (spec section 5: an error is shown only
 * when it is not 'empty'); the password field shows its hint instead.
 */
export const fieldMessages = {
  required: 'Required field',
  email: 'Invalid email format - please check your entry',
  phone: 'Invalid phone format - please check your entry',
  addressUsed: 'This address has already been used',
  login: 'This email is already in use',
  tooLong: 'This entry is too long',
  /** Sign-in refused: shown on the password field (spec section 8); the email is marked 'empty'. */
  invalidCredentials: 'Invalid email or password',
  empty: '',
} as const;
export type FieldCode = keyof typeof fieldMessages;

export function messageForCode(code: string): string {
  return (fieldMessages as Record<string, string>)[code] ?? fieldMessages.required;
}

/** Codes of whole-request errors (the `error` property of an error body). */
export const errorMessages = {
  validation: 'Please check the highlighted fields',
  invalidCredentials: 'Invalid email or password',
  invalidToken: 'Invalid reset password token',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  unauthorized: 'Your session has ended. Please sign in again.',
  forbidden: 'You do not have access to this.',
  notFound: 'The page you were looking for doesn’t exist.',
  conflict: 'This was changed by someone else meanwhile.',
  notImplemented: 'This is not available yet.',
  unhandled: 'Unhandled error. Please contact an administrator',
  /** No answer at all (offline, server unreachable): not in the spec, which only logs it. */
  offline: 'No connection. Please check your connection and try again.',
} as const;
export type ErrorCode = keyof typeof errorMessages;

export const PASSWORD_HINT = 'Passwords must contain at least one number and a mixture of uppercase and lowercase letters.';
