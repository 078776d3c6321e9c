import { errorMessages, fieldMessages, uploadMessage } from '../../../../shared/rules/error-codes';
import { FORM_E_MAX_FILES } from '../../../../shared/rules/limits';

const uploadCodes = ['fileTooLarge', 'fileType', 'fileName', 'tooManyFiles'] as const;

/** The words for a refused upload: the spec's upload messages, else the unhandled-error text. */
export function uploadErrorText(code: string, fileName: string): string {
  return (uploadCodes as readonly string[]).includes(code) && code in fieldMessages
    ? uploadMessage(code, fileName, FORM_E_MAX_FILES)
    : errorMessages.unhandled;
}
