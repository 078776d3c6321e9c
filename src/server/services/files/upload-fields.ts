import { AppError } from '../../errors/app-error';
import { documentTypes, type DocumentType } from '../../policies/files';
import { parseRecordId } from '../../../shared/rules/record-id';

export function checkUploadFields(fields: Record<string, string>): {
  applicationId: number;
  type: DocumentType;
  fileName: string | undefined;
} {
  const problems: Record<string, 'unknownField' | 'required' | 'invalid'> = {};
  for (const name of Object.keys(fields))
    if (!['applicationId', 'type', 'fileName'].includes(name)) problems[name] = 'unknownField';
  const applicationId = parseRecordId(fields.applicationId);
  if (applicationId === null) problems.applicationId = fields.applicationId === undefined ? 'required' : 'invalid';
  const type = fields.type as DocumentType;
  if (!(documentTypes as readonly string[]).includes(type)) problems.type = fields.type === undefined ? 'required' : 'invalid';
  if (Object.keys(problems).length > 0) throw AppError.validation(problems);
  return { applicationId: applicationId!, type, fileName: fields.fileName };
}
