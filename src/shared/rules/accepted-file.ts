import { UPLOAD_EXTENSIONS } from './limits';

/** What every PDF starts with (ISO 32000: the header line): the content check on both sides, whatever the name says. */
export const PDF_MAGIC = '%PDF-';

/** Our own bound: most file systems stop at 255 characters. */
const FILE_NAME_MAX_LENGTH = 255;

/** Path separators, control characters and bidirectional overrides (a name could pose as 'fdp.exe'). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const UNSAFE_CHARACTERS = /[/\\\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * An upload's name that is accepted (spec section 9: only .pdf; otherwise 'file name is not
 * acceptable'): a plain name, no surrounding spaces, ending in an accepted extension with something
 * before it. Checked by the form before a file is queued and by the server, which later sends the
 * name in Content-Disposition.
 */
export function isAcceptedFileName(name: string): boolean {
  if (name.length > FILE_NAME_MAX_LENGTH || name.trim() !== name || UNSAFE_CHARACTERS.test(name)) return false;
  const lower = name.toLowerCase();
  return UPLOAD_EXTENSIONS.some(
    (extension) => lower.endsWith(extension) && lower.slice(0, -extension.length).replace(/\.+$/, '') !== '',
  );
}
