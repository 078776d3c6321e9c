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
  /** Our wording: the spec only says the address history needs 2 years, "otherwise a submit error". */
  addressTooRecent: 'The address history must cover at least 2 years',
  /** A moved-in date later than the previous (older-listed) address's date (spec section 5). */
  dateOrder: 'This date cannot be later than the previous address date',
  /** A date that does not exist (31 February) or cannot be read. */
  date: 'Please enter a valid date',
  /** A moved-in date in the future. */
  futureDate: 'This date cannot be in the future',
  /** A date not written DD/MM/YYYY ('next spring'): the drawdown request's dates (decision 462), as the spec words a bad email. */
  dateFormat: 'Invalid date format - please check your entry',
  /** A date written DD/MM/YYYY that is not in the calendar (31/02/2027). Our wording, in the spec's style. */
  noSuchDate: 'This date does not exist - please check your entry',
  /** A date still to come (the next hearing, the final order, the repayment) given before today. Our wording. */
  pastDate: 'This date cannot be in the past',
  /** Money amounts and counts cannot be negative. */
  positive: 'The value must be 0 or more',
  /** Percentages (client's interest). */
  percent: 'The value must be between 0 and 100',
  /** A value of the wrong kind, or not one of the offered options. */
  invalid: 'Please check your entry',
  /** Uploads (spec section 8): the screen puts the file's name before these (see uploadMessage). */
  fileTooLarge: 'file size exceeds 20 MB',
  /** The content is not a PDF (a file named .pdf that is damaged or of another kind). Our wording (decision 337). */
  fileType: 'this file is not a readable PDF',
  fileName: 'file name is not acceptable',
  tooManyFiles: 'too many files',
  /** An upload with more files or fields than one upload takes. Our wording. */
  tooMany: 'Too many files or fields were sent',
  /** The client's email is their login: it was invited and cannot change in the journey. Our wording. */
  emailLocked: 'The email address cannot be changed once the client is invited',
  /** An answer only the other party gives (the lawyer's consent and authority). Our wording. */
  notYours: 'Only the other party can answer this',
  /** A field the request may not send (read-only on this screen), or a query parameter the call does not take. */
  unknownField: 'This field cannot be changed here',
  /** Money (spec section 5): an amount of exactly 0. */
  greaterThanZero: 'The number must be greater than 0',
  /** A drawdown above the loan's credit available (spec section 5). */
  exceedsCredit: "The drawdown amount can't exceed available credit",
  /**
   * A drawdown above the credit the client has signed for, within a raised facility still waiting
   * for the client to sign its variation (docs/decisions.md, 509). Our wording.
   */
  exceedsSignedCredit:
    "The drawdown amount can't exceed the credit the client has signed for. The rest can be drawn once they sign the variation",
  /** A loan amount below the drawdowns already taken (spec section 5). */
  belowDrawdowns: 'Is less than already drawdowned amount',
  /** An amount with more than two decimals. Our wording. */
  pence: 'Please enter pounds and pence (at most 2 decimals)',
  /** An amount beyond our bound (money.ts). Our wording. */
  amountTooLarge: 'This amount is too large',
  /** The client's approval of a drawdown needs each of the five declarations True. Our wording. */
  notAgreed: 'Every declaration must be True to approve the request',
  /** A push subscription whose endpoint is not an https URL (docs/decisions.md 676). Our wording. */
  httpsRequired: 'The push service address must be an https address',
  /** A push subscription whose endpoint is not a push service the server sends to (decision 701). Our wording. */
  pushServiceUnknown: 'The portal does not send notifications through this browser’s push service',
  /** Sign-in refused: shown on the password field (spec section 8); the email is marked 'empty'. */
  invalidCredentials: 'Invalid email or password',
  empty: '',
} as const;
export type FieldCode = keyof typeof fieldMessages;

export function messageForCode(code: string): string {
  return (fieldMessages as Record<string, string>)[code] ?? fieldMessages.required;
}

/**
 * A money field's words: as every field's, except that an amount below 0 reads 'The number must be
 * positive' (spec section 5), where the journey's amounts say 'The value must be 0 or more'.
 */
export function amountMessage(code: string): string {
  return code === 'positive' ? 'The number must be positive' : messageForCode(code);
}

/**
 * An upload problem names the file (spec section 8: "Message naming the file and the limit in MB").
 * `tooManyFiles` takes the step's own limit (10 on the documents step, 20 otherwise).
 */
export function uploadMessage(code: string, fileName: string, maxFiles?: number): string {
  if (code === 'tooManyFiles' && maxFiles !== undefined) return `${fileName}: at most ${maxFiles} files can be uploaded`;
  return `${fileName}: ${messageForCode(code)}`;
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
  /** The application is past the editable statuses (incomplete, created). Our wording. */
  notEditable: 'This application can no longer be changed.',
  loanAmountMissing: 'Please set the loan amount before accepting the application.',
  /** Submitting with steps whose required answers are missing (`fields` names the steps). Our wording. */
  incompleteSteps: 'Some steps are not complete yet. Please complete them before submitting.',
  /** The configured address provider did not answer; manual entry always works. Our wording. */
  postcodeUnavailable: 'Address lookup is not available right now. Please enter the address manually.',
  /** An Idempotency-Key reused for a different request (a client bug, not a user error). */
  idempotencyKeyReused: 'This request was already used for a different change.',
  /** The client set their password: their email is their login now, theirs to change (decision 344). Our wording. */
  clientJoined: 'Your client has already joined, so their email address can no longer be changed here.',
  /** A replay arrived while the first request with the same key is still running. */
  inProgress: 'This change is still being saved. Please wait a moment.',
  /** The application PDF took longer than the server allows (PDF_TIMEOUT_MS). Our wording. */
  pdfTimeout: 'The PDF took too long to make. Please try again later.',
  /** Making the application PDF failed on the server. Our wording. */
  pdfFailed: 'The PDF could not be made. Please try again later.',
  /** The server could not store the file (a full or failing disk): the upload stays queued. Our wording. */
  storageUnavailable: 'The file could not be stored right now. It will be sent again shortly.',
  /** No answer at all (offline, server unreachable): not in the spec, which only logs it. */
  offline: 'No connection. Please check your connection and try again.',
  /** An answer that did not come in time, or a 502, 503 or 504: the portal, not the device, is the trouble. Our wording. */
  unavailable: 'The portal is not answering just now. Please try again in a few minutes.',
  /** A request the server cannot read (malformed body, a value the database refuses). Our wording. */
  badRequest: 'The request could not be read. Please check your entry and try again.',
  /** An upload whose multipart body could not be read (cut short, no closing boundary). Our wording. */
  badUpload: 'The file did not arrive whole. Please try again.',
  /** A body over the server's limit. Our wording. */
  tooLarge: 'This is too large to send.',
  /** A body of a kind the call does not take. Our wording. */
  unsupportedMediaType: 'This kind of content cannot be sent here.',
  /**
   * Deleting a firm, a lawyer or a solicitor with an active case; the screen that deletes uses the
   * words of hasActiveCasesMessages for what it deletes. Our wording for any other.
   */
  hasActiveCases: "This can't be deleted due to active cases",
  /**
   * A drawdown requested, approved or paid, or a loan amount changed, while the loan is blocked,
   * paid or closed. Our wording.
   */
  loanNotOpen: 'This loan is not open, so this cannot be done now.',
  /** Asking to sign a loan's variation when none waits (signed, or withdrawn by the provider meanwhile). Our wording. */
  variationNotPending: 'There is no variation of this loan waiting for your signature.',
  /** The envelope could not be made (spec section 8, word for word). */
  envelopeFailed: "Docusign envelope can't be prepared. Check your documents format",
  /**
   * DocuSign did not answer in time, or failed, while preparing, opening or finishing a signature:
   * nothing was changed (docs/decisions.md 529). Our wording.
   */
  esignProviderUnavailable: 'DocuSign is not answering just now, so nothing was changed. Please try again in a few minutes.',
  /** DocuSign refused to open the documents for signing (e.g. the envelope was voided there). Our wording. */
  esignProviderRefused:
    'DocuSign cannot open these documents for signing. Please contact us: they may need to be prepared again.',
  /** A signing link that expired, was replaced by a newer one, or whose envelope is gone. Our wording (decision 286). */
  signingLinkExpired:
    'This signing link has expired or is no longer valid. Please open your application and choose to sign again for a new link.',
  /** Signing before a code was asked for (or after a new one replaced it). Our wording. */
  signingCodeNeeded: 'Please ask for a code first. We will email it to you.',
  /** A wrong one-time code. Our wording. */
  signingCodeInvalid: 'The code is not correct. Please check it and try again.',
  /** A code older than ten minutes. Our wording. */
  signingCodeExpired: 'This code has expired. Please ask for a new code.',
  /** Five wrong codes: that code is spent. Our wording. */
  signingCodeAttempts: 'Too many wrong codes. Please ask for a new code.',
  /** Too many codes asked for with one link. Our wording. */
  signingCodeLimit: 'Too many codes were asked for with this link. Please open your application and choose to sign again.',
  /**
   * 'accept' while one of the three review checks is not ticked (spec section 4: accept only when
   * all three are ticked). Our wording.
   */
  checksIncomplete: 'Please complete the KYC/AML, credit and repayment vehicle checks before accepting.',
  /** A review check outside its state (the three in review, the certificate in prepare). Our wording. */
  checkClosed: 'This check cannot be changed at this stage.',
  /** 'Certificate of independent advice uploaded' ticked with no Certificate of Advice uploaded. Our wording. */
  certificateMissing: 'Please upload the Certificate of Advice first.',
  /**
   * esignPrepared, customerNotified, esignComplete and customerAccepted asked of the status call:
   * their own calls make them (prepare docusign, notify client, signing). Our wording.
   */
  ownCall: 'This step has its own action and cannot be set here.',
} as const;

/** An upload refused for its file: the error is the field's code, and the screen names the file (uploadMessage). */
export const uploadErrorCodes = ['fileTooLarge', 'fileType', 'fileName', 'tooManyFiles'] as const satisfies readonly FieldCode[];

/** Every code the server may send as `error`: each has words on the client (AppError takes only these). */
export type ErrorCode = keyof typeof errorMessages | (typeof uploadErrorCodes)[number];

export const PASSWORD_HINT = 'Passwords must contain at least one number and a mixture of uppercase and lowercase letters.';

// ── Administration ──────────────────────────────────────────────────────────────────────────
/**
 * 400 `hasActiveCases` on deleting a firm, a lawyer or a solicitor with an active case. The code
 * is one; the words depend on what was deleted (the solicitor's are the spec's, the others ours).
 */
export const hasActiveCasesMessages = {
  firm: "The law firm can't be deleted due to its lawyers having active cases",
  lawyer: "The lawyer can't be deleted due to having active cases",
  solicitor: "The solicitor can't be deleted due to having active cases",
} as const;
