import * as v from 'valibot';
import type { components } from '../../../../shared/api/schema';
import { lawyerDeclarationKeys, type LawyerDeclarationKey } from '../../../../shared/rules/declarations';
import { TEXT_MAX_LENGTH } from '../../../../shared/rules/limits';
import { drawdownRequestCodes } from '../../../../shared/rules/drawdown-request';
import { wirePence } from '../../../../shared/rules/money';
import { parseNumberInput } from '../../../ui/number-field';

export type DrawdownRequest = components['schemas']['DrawdownRequest'];

/**
 * The drawdown request form as typed: text as strings, Yes/No and True/False answers as booleans
 * (null while unanswered). This is what the draft keeps on the device.
 */
export interface RequestValues {
  amount: string;
  invoiceNumber: string;
  stageOfCase: string;
  materialChanges: boolean | null;
  materialChangesDetails: string;
  nextHearingDate: string;
  finalOrderDate: string;
  reaplyAssets: string;
  expectedRepaymentDate: string;
  declarations: Record<LawyerDeclarationKey, boolean | null>;
  declarationDetails: Record<LawyerDeclarationKey, string>;
}

function perDeclaration<T>(value: T): Record<LawyerDeclarationKey, T> {
  return Object.fromEntries(lawyerDeclarationKeys.map((key) => [key, value])) as Record<LawyerDeclarationKey, T>;
}

export function emptyRequest(): RequestValues {
  return {
    amount: '',
    invoiceNumber: '',
    stageOfCase: '',
    materialChanges: null,
    materialChangesDetails: '',
    nextHearingDate: '',
    finalOrderDate: '',
    reaplyAssets: '',
    expectedRepaymentDate: '',
    declarations: perDeclaration<boolean | null>(null),
    declarationDetails: perDeclaration(''),
  };
}

const text = v.optional(v.pipe(v.string(), v.maxLength(TEXT_MAX_LENGTH)), '');
const answer = v.optional(v.nullable(v.boolean()), null);

/**
 * A stored draft (written by this or an earlier version) back into the form's values: fields it
 * lacks start empty; a draft that is not an object at all cannot be used (null).
 */
const draftSchema = v.object({
  amount: text,
  invoiceNumber: text,
  stageOfCase: text,
  materialChanges: answer,
  materialChangesDetails: text,
  nextHearingDate: text,
  finalOrderDate: text,
  reaplyAssets: text,
  expectedRepaymentDate: text,
  declarations: v.optional(v.record(v.string(), answer), {}),
  declarationDetails: v.optional(v.record(v.string(), text), {}),
});

export function parseRequestDraft(stored: unknown): RequestValues | null {
  const parsed = v.safeParse(draftSchema, stored);
  if (!parsed.success) return null;
  const { declarations, declarationDetails, ...rest } = parsed.output;
  const empty = emptyRequest();
  return {
    ...rest,
    declarations: Object.fromEntries(
      lawyerDeclarationKeys.map((key) => [key, declarations[key] ?? null]),
    ) as RequestValues['declarations'],
    declarationDetails: Object.fromEntries(
      lawyerDeclarationKeys.map((key) => [key, declarationDetails[key] ?? empty.declarationDetails[key]]),
    ) as RequestValues['declarationDetails'],
  };
}

/**
 * What the server is sent (spec section 5: the amount as a number, each statement as a boolean,
 * the loan's applicationId added). Only for values that passed the form's checks.
 */
export function toWire(values: RequestValues, applicationId: number): DrawdownRequest {
  const lawyerDeclarations = {} as DrawdownRequest['lawyerDeclarations'];
  const target = lawyerDeclarations as unknown as Record<string, boolean | string>;
  for (const key of lawyerDeclarationKeys) {
    const agreed = values.declarations[key] === true;
    target[key] = agreed;
    const details = values.declarationDetails[key].trim();
    if (!agreed && details) target[`${key}Details`] = details;
  }
  const details = values.materialChangesDetails.trim();
  return {
    applicationId,
    amount: parseNumberInput(values.amount) ?? 0,
    invoiceNumber: values.invoiceNumber.trim(),
    stageOfCase: values.stageOfCase.trim(),
    materialChanges: values.materialChanges === true,
    ...(values.materialChanges === true && details ? { materialChangesDetails: details } : {}),
    nextHearingDate: values.nextHearingDate.trim(),
    finalOrderDate: values.finalOrderDate.trim(),
    reaplyAssets: values.reaplyAssets.trim(),
    expectedRepaymentDate: values.expectedRepaymentDate.trim(),
    lawyerDeclarations,
  };
}

/** A queued request back into form values (a refused write whose draft is gone). */
export function fromWire(request: DrawdownRequest): RequestValues {
  const declarations = request.lawyerDeclarations as unknown as Record<string, boolean | string | undefined>;
  const empty = emptyRequest();
  return {
    amount: String(request.amount),
    invoiceNumber: request.invoiceNumber,
    stageOfCase: request.stageOfCase,
    materialChanges: request.materialChanges,
    materialChangesDetails: request.materialChangesDetails ?? '',
    nextHearingDate: request.nextHearingDate,
    finalOrderDate: request.finalOrderDate,
    reaplyAssets: request.reaplyAssets,
    expectedRepaymentDate: request.expectedRepaymentDate,
    declarations: Object.fromEntries(
      lawyerDeclarationKeys.map((key) => [key, typeof declarations[key] === 'boolean' ? declarations[key] : null]),
    ) as RequestValues['declarations'],
    declarationDetails: Object.fromEntries(
      lawyerDeclarationKeys.map((key) => {
        const details = declarations[`${key}Details`];
        return [key, typeof details === 'string' ? details : empty.declarationDetails[key]];
      }),
    ) as RequestValues['declarationDetails'],
  };
}

/**
 * Field path → code: the shared checks of spec section 5 (the server runs the same), on the values
 * as typed, against the credit available last known (pounds, as the server sent it) and what a
 * variation waiting for the client's signature would add (docs/decisions.md, 509).
 */
export function requestCodes(
  values: RequestValues,
  creditAvailable: number | undefined,
  creditAwaitingSignature = 0,
): Record<string, string> {
  const codes = drawdownRequestCodes(
    {
      ...values,
      lawyerDeclarations: values.declarations,
      materialChangesDetails: values.materialChangesDetails,
    },
    creditAvailable === undefined
      ? undefined
      : { availablePence: wirePence(creditAvailable), awaitingSignaturePence: wirePence(creditAwaitingSignature) },
  );
  return formCodesOf(codes);
}

/** The text fields of a kept draft that hold something: they count as touched when it comes back. */
export function filledFields(values: RequestValues): Set<string> {
  const fields = [
    'amount',
    'invoiceNumber',
    'stageOfCase',
    'materialChangesDetails',
    'nextHearingDate',
    'finalOrderDate',
    'reaplyAssets',
    'expectedRepaymentDate',
  ] as const;
  return new Set(fields.filter((field) => values[field].trim() !== ''));
}

/** A field path of the server's answer (the wire's names) as the form's path. */
export function formPathOf(serverPath: string): string {
  const match = /^lawyerDeclarations\.(\w+?)(Details)?$/.exec(serverPath);
  if (!match) return serverPath;
  return match[2] ? `declarationDetails.${match[1]}` : `declarations.${match[1]}`;
}

export function formCodesOf(serverCodes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(serverCodes).map(([path, code]) => [formPathOf(path), code]));
}
