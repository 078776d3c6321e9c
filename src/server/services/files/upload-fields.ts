import { AppError } from '../../http/app-error';
import { documentTypes, type DocumentType } from '../../policies/files';

const UNSAFE_NAME = /[/\\\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A file name we keep and later send in Content-Disposition: a plain name ending .pdf. */
export function acceptableFileName(name: string): boolean {
  return name.length <= 255 && name.trim() === name && !UNSAFE_NAME.test(name) && /^.+\.pdf$/i.test(name) && !/^\.+pdf$/i.test(name);
}

function parseApplicationId(value: string | undefined): number | undefined {
  if (value === undefined || !/^[1-9]\d{0,9}$/.test(value)) return undefined;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : undefined;
}

export function checkUploadFields(fields: Record<string, string>): { applicationId: number; type: DocumentType; fileName: string | undefined } {
  const problems: Record<string, 'unknownField' | 'required' | 'invalid'> = {};
  for (const name of Object.keys(fields)) if (!['applicationId', 'type', 'fileName'].includes(name)) problems[name] = 'unknownField';
  const applicationId = parseApplicationId(fields.applicationId);
  if (applicationId === undefined) problems.applicationId = fields.applicationId === undefined ? 'required' : 'invalid';
  const type = fields.type as DocumentType;
  if (!(documentTypes as readonly string[]).includes(type)) problems.type = fields.type === undefined ? 'required' : 'invalid';
  if (Object.keys(problems).length > 0) throw AppError.validation(problems);
  return { applicationId: applicationId!, type, fileName: fields.fileName };
}
