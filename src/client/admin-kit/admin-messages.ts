/**
 * Words of the administration screens that the spec names without giving them (docs/decisions.md,
 * 'Wording the spec names but does not give').
 */

/** The confirmations of section 4 (ours, in the wording of its loan confirmations). */
export const confirmMessages = {
  deleteFirm: 'Are you sure you want to delete this law firm?',
  deleteLawyer: 'Are you sure you want to delete this lawyer?',
  deleteSolicitor: 'Are you sure you want to delete this solicitor?',
  resetPassword: 'Are you sure you want to reset the password of this client?',
} as const;

/**
 * Replaces "No connection…" below a form once the connection is back: the save did not happen, and
 * the typing waits on the device (our wording).
 */
export const BACK_ONLINE_SAVE_AGAIN = 'You are back online. Save again to send your changes.';

/** Toasts after a change (our wording: the spec only says a toast is shown). */
export const doneMessages = {
  firmAdded: 'The law firm has been added. Its admin has been invited by email.',
  firmSaved: 'The law firm has been saved.',
  firmDeleted: 'The law firm has been deleted.',
  lawyerAdded: 'The lawyer has been added and invited by email.',
  lawyerSaved: 'The lawyer has been saved.',
  lawyerDeleted: 'The lawyer has been deleted.',
  solicitorAdded: 'The solicitor has been added.',
  solicitorSaved: 'The solicitor has been saved.',
  solicitorDeleted: 'The solicitor has been deleted.',
  clientSaved: 'The client has been saved.',
  resetSent: 'A password reset link has been sent to the client.',
} as const;
