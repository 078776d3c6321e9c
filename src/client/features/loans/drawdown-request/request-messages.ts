import { amountMessage, messageForCode } from '../../../../shared/rules/error-codes';
import { codeMessage } from '../../../api/failure';
import { formCodesOf } from './request-values';

/** A field's code in words: the amount's own words, and 'Required Field' for an unanswered statement. */
export function requestMessage(path: string, code: string): string {
  if (path === 'amount') return amountMessage(code);
  // An unanswered True/False statement after a failed submit (spec section 5).
  if (path.startsWith('declarations.') && code === 'required') return 'Required Field';
  return messageForCode(code);
}

/**
 * Why a kept draft was not sent, in words: the server's, or for a refusal of its fields (the amount
 * beyond the credit: the form that would mark them is not shown) each field's message.
 */
export function refusalWords(serverError: string | undefined, serverCodes: Record<string, string> | undefined): string {
  if (serverError !== 'validation') return codeMessage(serverError ?? 'unhandled');
  const messages = Object.entries(formCodesOf(serverCodes ?? {}))
    .filter(([, code]) => code !== 'empty')
    .map(([path, code]) => requestMessage(path, code).replace(/([^.])$/, '$1.'));
  return messages.length > 0 ? messages.join(' ') : codeMessage(serverError);
}
