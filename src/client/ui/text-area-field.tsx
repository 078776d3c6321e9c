import type { TextareaHTMLAttributes } from 'react';
import { TEXT_MAX_LENGTH } from '../../shared/rules/limits';
import { ErrorSlot, FieldHint, fieldClass, useFieldIds } from './field-parts';
import './text-area-field.css';

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string | null;
  hint?: string;
  describedBy?: string;
}

/** A labelled multi-line answer; cut to the maximum length (spec: default 100000) like TextField. */
export function TextAreaField({
  label,
  value,
  onValueChange,
  error,
  hint,
  describedBy,
  maxLength = TEXT_MAX_LENGTH,
  rows = 4,
  id,
  className,
  ...rest
}: TextAreaFieldProps) {
  const ids = useFieldIds(id, hint, error, describedBy);
  const invalid = Boolean(error);
  return (
    <div className={fieldClass(invalid, className)}>
      <label className="field__label" htmlFor={ids.controlId}>
        {label}
      </label>
      <textarea
        id={ids.controlId}
        className="field__input field__textarea"
        value={value}
        rows={rows}
        maxLength={maxLength}
        aria-invalid={invalid || undefined}
        aria-describedby={ids.describers}
        onChange={(event) => onValueChange(event.target.value.slice(0, maxLength))}
        {...rest}
      />
      <FieldHint id={ids.hintId} hint={hint} />
      <ErrorSlot id={ids.errorId} error={error} />
    </div>
  );
}
