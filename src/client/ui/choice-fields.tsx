import type { FocusEvent, ReactNode, SelectHTMLAttributes } from 'react';
// One primitive's module each, not the barrel: a chunk gets only what it uses (decision 366).
import * as Checkbox from 'radix-ui/checkbox';
import * as RadioGroup from 'radix-ui/radio-group';
import { ErrorSlot, FieldHint, fieldClass, leftGroup, useFieldIds } from './field-parts';
import './choice-fields.css';

export interface ChoiceOption {
  value: string | number;
  label: string;
  /** Shown but not choosable (a select's option only). */
  disabled?: boolean;
}

interface CommonProps {
  label: string;
  /** The message to show; null when there is none to show. */
  error?: string | null;
  hint?: string;
  describedBy?: string;
  disabled?: boolean;
  id?: string;
  className?: string;
}

interface SelectFieldProps
  extends CommonProps, Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'id' | 'disabled' | 'className'> {
  value: string;
  onValueChange: (value: string) => void;
  options: readonly ChoiceOption[];
  /** The empty first choice ('Select'); the value is '' while it is shown. */
  placeholder?: string;
}

/**
 * A labelled native select. Native on purpose: on a phone it opens the system's own picker (the
 * wheel on iOS, the list sheet on Android), which is the fastest to use with a thumb, is read by
 * every screen reader, needs no script to open and never renders off screen. Radix Select was
 * weighed and left for desktop-only lists (docs/decisions.md).
 */
export function SelectField({
  label,
  value,
  onValueChange,
  options,
  placeholder = 'Select',
  error,
  hint,
  describedBy,
  disabled,
  id,
  className,
  ...rest
}: SelectFieldProps) {
  const ids = useFieldIds(id, hint, error, describedBy);
  const invalid = Boolean(error);
  return (
    <div className={fieldClass(invalid, className)}>
      <label className="field__label" htmlFor={ids.controlId}>
        {label}
      </label>
      <div className="field__control field__control--select">
        <select
          id={ids.controlId}
          className="field__input field__select"
          value={value}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          aria-describedby={ids.describers}
          onChange={(event) => onValueChange(event.target.value)}
          {...rest}
        >
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={String(option.value)} value={String(option.value)} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <FieldHint id={ids.hintId} hint={hint} />
      <ErrorSlot id={ids.errorId} error={error} />
    </div>
  );
}

interface RadioFieldProps extends CommonProps {
  value: string;
  onValueChange: (value: string) => void;
  options: readonly ChoiceOption[];
  /** Focus left the whole group (not just moved from one option to the next). */
  onBlur?: () => void;
  /** Options side by side (Yes/No) or one under another (longer lists). */
  orientation?: 'horizontal' | 'vertical';
}

/**
 * A question answered by one of a few options (Radix RadioGroup: arrow keys move between the
 * options, Tab leaves the group). Each option is a whole row at least 44 px high: the label is
 * part of the target.
 */
export function RadioField({
  label,
  value,
  onValueChange,
  options,
  onBlur,
  orientation = 'vertical',
  error,
  hint,
  describedBy,
  disabled,
  id,
  className,
}: RadioFieldProps) {
  const ids = useFieldIds(id, hint, error, describedBy);
  const invalid = Boolean(error);
  const handleBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (onBlur && leftGroup(event)) onBlur();
  };
  return (
    <div className={fieldClass(invalid, className, 'field--group')}>
      <span className="field__label" id={ids.labelId}>
        {label}
      </span>
      <RadioGroup.Root
        id={ids.controlId}
        className={`choice-group choice-group--${orientation}`}
        value={value}
        onValueChange={onValueChange}
        disabled={disabled}
        orientation={orientation}
        aria-labelledby={ids.labelId}
        aria-describedby={ids.describers}
        aria-invalid={invalid || undefined}
        onBlur={handleBlur}
      >
        {options.map((option) => {
          const optionId = `${ids.controlId}-${String(option.value)}`;
          return (
            <label key={String(option.value)} className="choice" htmlFor={optionId}>
              <RadioGroup.Item id={optionId} className="choice__radio" value={String(option.value)}>
                <RadioGroup.Indicator className="choice__radio-dot" />
              </RadioGroup.Item>
              <span className="choice__label">{option.label}</span>
            </label>
          );
        })}
      </RadioGroup.Root>
      <FieldHint id={ids.hintId} hint={hint} />
      <ErrorSlot id={ids.errorId} error={error} />
    </div>
  );
}

const yesNo: readonly ChoiceOption[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

interface YesNoFieldProps extends CommonProps {
  /** null while unanswered. */
  value: boolean | null;
  onValueChange: (value: boolean) => void;
  onBlur?: () => void;
}

/** A Yes/No question: two large options side by side. */
export function YesNoField({ value, onValueChange, ...rest }: YesNoFieldProps) {
  return (
    <RadioField
      {...rest}
      orientation="horizontal"
      options={yesNo}
      value={value === null ? '' : value ? 'yes' : 'no'}
      onValueChange={(next) => onValueChange(next === 'yes')}
    />
  );
}

interface CheckboxFieldProps extends Omit<CommonProps, 'label'> {
  /** The statement the user ticks; may hold a link. */
  label: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  onBlur?: () => void;
}

/** A statement to tick (Radix Checkbox: Space toggles it); the whole row is the touch target. */
export function CheckboxField({
  label,
  checked,
  onCheckedChange,
  onBlur,
  error,
  hint,
  describedBy,
  disabled,
  id,
  className,
}: CheckboxFieldProps) {
  const ids = useFieldIds(id, hint, error, describedBy);
  const invalid = Boolean(error);
  return (
    <div className={fieldClass(invalid, className, 'field--checkbox')}>
      <div className="choice choice--checkbox">
        <Checkbox.Root
          id={ids.controlId}
          className="choice__checkbox"
          checked={checked}
          onCheckedChange={(next) => onCheckedChange(next === true)}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          aria-describedby={ids.describers}
          onBlur={onBlur}
        >
          <Checkbox.Indicator className="choice__tick" aria-hidden="true">
            <svg viewBox="0 0 16 16" width="16" height="16" focusable="false">
              <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2.5" />
            </svg>
          </Checkbox.Indicator>
        </Checkbox.Root>
        <label className="choice__label" htmlFor={ids.controlId}>
          {label}
        </label>
      </div>
      <FieldHint id={ids.hintId} hint={hint} />
      <ErrorSlot id={ids.errorId} error={error} />
    </div>
  );
}
