import { memo } from 'react';
import { DRAWDOWN_DATE_HINT } from '../../../../shared/rules/drawdown-dates';
import { drawdownFieldMaxLength } from '../../../../shared/rules/drawdown-request';
import {
  declarationDetailsLabel,
  lawyerDeclarationKeys,
  lawyerDeclarationLabels,
  type LawyerDeclarationKey,
} from '../../../../shared/rules/declarations';
import { drawdownFieldLabels } from '../../../../shared/rules/loan-labels';
import { RadioField, YesNoField } from '../../../ui/choice-fields';
import { TextField } from '../../../ui/field';
import { MoneyField } from '../../../ui/number-field';
import { TextAreaField } from '../../../ui/text-area-field';
import type { RequestValues } from './request-values';

const trueFalse = [
  { value: 'true', label: 'True' },
  { value: 'false', label: 'False' },
] as const;

type TextFieldName = 'invoiceNumber' | 'stageOfCase' | 'nextHearingDate' | 'finalOrderDate' | 'expectedRepaymentDate';

export interface RequestFieldsProps {
  values: RequestValues;
  /** The user's change of the values. */
  change: (update: (current: RequestValues) => RequestValues) => void;
  /** Focus left the field at this path. */
  touch: (path: string) => void;
  /** The messages shown, by field path. */
  errors: Record<string, string>;
  /** The hint under the amount: the credit this request may use. */
  amountHint: string;
}

/**
 * The request's fields (spec section 5): the amount, the case's details and dates, material
 * changes. Memoised, as the declarations are: the form's other renders (the draft written, the
 * waiting write read) leave them as they are (docs/decisions.md, 653).
 */
export const RequestFields = memo(function RequestFields({ values, change, touch, errors, amountHint }: RequestFieldsProps) {
  const text = (field: TextFieldName, hint?: string) => (
    <TextField
      label={drawdownFieldLabels[field]}
      value={values[field]}
      onValueChange={(next) => change((current) => ({ ...current, [field]: next }))}
      onBlur={() => touch(field)}
      error={errors[field] ?? null}
      {...(field in drawdownFieldMaxLength
        ? { maxLength: drawdownFieldMaxLength[field as keyof typeof drawdownFieldMaxLength] }
        : {})}
      {...(hint ? { hint } : {})}
    />
  );
  return (
    <>
      <div className="drawdown-request__grid">
        <MoneyField
          label={drawdownFieldLabels.amount}
          hint={amountHint}
          value={values.amount}
          onValueChange={(next) => change((current) => ({ ...current, amount: next }))}
          onBlur={() => touch('amount')}
          error={errors.amount ?? null}
        />
        {text('invoiceNumber')}
        {text('stageOfCase')}
        {text('nextHearingDate', DRAWDOWN_DATE_HINT)}
        {text('finalOrderDate', DRAWDOWN_DATE_HINT)}
        {text('expectedRepaymentDate', DRAWDOWN_DATE_HINT)}
        <TextAreaField
          className="field--wide"
          label={drawdownFieldLabels.reaplyAssets}
          rows={3}
          value={values.reaplyAssets}
          onValueChange={(next) => change((current) => ({ ...current, reaplyAssets: next }))}
          onBlur={() => touch('reaplyAssets')}
          error={errors.reaplyAssets ?? null}
        />
      </div>
      <YesNoField
        label={drawdownFieldLabels.materialChanges}
        value={values.materialChanges}
        onValueChange={(next) => change((current) => ({ ...current, materialChanges: next }))}
        onBlur={() => touch('materialChanges')}
        error={errors.materialChanges ?? null}
      />
      {values.materialChanges ? (
        <TextAreaField
          className="field-reveal"
          label={drawdownFieldLabels.materialChangesDetails}
          rows={3}
          value={values.materialChangesDetails}
          onValueChange={(next) => change((current) => ({ ...current, materialChangesDetails: next }))}
          onBlur={() => touch('materialChangesDetails')}
          error={errors.materialChangesDetails ?? null}
        />
      ) : null}
    </>
  );
});

export interface DeclarationProps {
  declaration: LawyerDeclarationKey;
  answer: boolean | null;
  details: string;
  change: RequestFieldsProps['change'];
  touch: RequestFieldsProps['touch'];
  answerError: string | null;
  detailsError: string | null;
}

/**
 * One True/False statement, with its details when False. Memoised: typing elsewhere in the form
 * leaves the nine statements as they are (docs/decisions.md, 653).
 */
const Declaration = memo(function Declaration({
  declaration,
  answer,
  details,
  change,
  touch,
  answerError,
  detailsError,
}: DeclarationProps) {
  const path = `declarations.${declaration}`;
  return (
    <div className="drawdown-request__declaration">
      <RadioField
        label={lawyerDeclarationLabels[declaration]}
        orientation="horizontal"
        options={trueFalse}
        value={answer === null ? '' : String(answer)}
        onValueChange={(next) =>
          change((current) => ({ ...current, declarations: { ...current.declarations, [declaration]: next === 'true' } }))
        }
        onBlur={() => touch(path)}
        error={answerError}
      />
      {answer === false ? (
        <TextAreaField
          className="field-reveal"
          label={declarationDetailsLabel}
          rows={3}
          value={details}
          onValueChange={(next) =>
            change((current) => ({ ...current, declarationDetails: { ...current.declarationDetails, [declaration]: next } }))
          }
          onBlur={() => touch(`declarationDetails.${declaration}`)}
          error={detailsError}
        />
      ) : null}
    </div>
  );
});

/** The lawyer's declarations: each statement True or False, with details when False. */
export const RequestDeclarations = memo(function RequestDeclarations({
  values,
  change,
  touch,
  errors,
}: Omit<RequestFieldsProps, 'amountHint'>) {
  return (
    <fieldset className="drawdown-request__declarations">
      <legend className="drawdown-request__legend">Your declarations</legend>
      <p className="drawdown-request__intro">Answer each statement True or False. If False, please give details.</p>
      {lawyerDeclarationKeys.map((declaration) => (
        <Declaration
          key={declaration}
          declaration={declaration}
          answer={values.declarations[declaration]}
          details={values.declarationDetails[declaration]}
          change={change}
          touch={touch}
          answerError={errors[`declarations.${declaration}`] ?? null}
          detailsError={errors[`declarationDetails.${declaration}`] ?? null}
        />
      ))}
    </fieldset>
  );
});
