import { errorMessages } from '../../../../shared/rules/error-codes';
import { statusChangeOf, statusChangeSentence } from '../../../../shared/rules/status-change';
import { codeMessage } from '../../../api/failure';
import type { Audience } from './steps/step-definition';

/** Our wording (docs/decisions.md 432): a submit refused because the application moved on meanwhile. */
export const SUBMIT_REFUSED_MESSAGE = 'This application could not be submitted.';
const KEPT_MESSAGE = 'Your answers on this step are kept on this device.';

/**
 * What a refused save or submit says, in the user's terms: the code's words, and when the
 * application's status moved on meanwhile, who moved it and when ('Chris Walker (your client)
 * submitted this application on 25/11/2026 at 14:05.').
 */
export function RefusalWords({
  code,
  details,
  audience,
  write,
}: {
  code: string;
  details?: unknown;
  audience: Audience;
  write: 'save' | 'submit';
}) {
  const change = statusChangeOf(details);
  if (!change) return <p>{codeMessage(code, errorMessages.validation)}</p>;
  return (
    <>
      <p>{write === 'save' ? errorMessages.notEditable : SUBMIT_REFUSED_MESSAGE}</p>
      <p>{statusChangeSentence(change, audience)}</p>
      {write === 'save' ? <p>{KEPT_MESSAGE}</p> : null}
    </>
  );
}
