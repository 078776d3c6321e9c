import type { ComponentProps, FocusEvent } from 'react';
import { TextField } from './field';
import { ErrorSlot, FieldHint, fieldClass, useFieldIds } from './field-parts';
import './number-field.css';

type TextFieldProps = ComponentProps<typeof TextField>;

/** Digits only (spec: number inputs take digits only); anything else typed or pasted is dropped. */
export function digitsOnly(raw: string, maxDigits?: number): string {
  const digits = raw.replace(/\D/g, '');
  return maxDigits ? digits.slice(0, maxDigits) : digits;
}

/**
 * An amount of pounds as typed: digits and one decimal point with at most two decimals; '£', commas
 * and spaces (a pasted '£1,234.50') are dropped. '12.' survives while typing.
 */
export function moneyInput(raw: string): string {
  const cleaned = raw.replace(/[^\d.]/g, '');
  const dot = cleaned.indexOf('.');
  if (dot === -1) return cleaned;
  const whole = cleaned.slice(0, dot);
  const decimals = cleaned
    .slice(dot + 1)
    .replace(/\./g, '')
    .slice(0, 2);
  return `${whole}.${decimals}`;
}

/** The amount as two decimals when it has any ('12.5' → '12.50', '12.' → '12'); otherwise as is. */
export function moneyOnLeave(value: string): string {
  if (!value.includes('.')) return value;
  const [whole = '', decimals = ''] = value.split('.');
  if (decimals === '') return whole;
  return `${whole === '' ? '0' : whole}.${decimals.padEnd(2, '0')}`;
}

/** The number a typed string stands for; undefined when it is empty or not a number. */
export function parseNumberInput(value: string): number | undefined {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === '.') return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}

interface NumberFieldProps extends Omit<TextFieldProps, 'inputMode' | 'type'> {
  /** At most this many digits. */
  maxDigits?: number;
}

/** A whole number: the phone's digit keyboard, and digits only. */
export function NumberField({ onValueChange, maxDigits, ...rest }: NumberFieldProps) {
  return (
    <TextField
      inputMode="numeric"
      autoComplete="off"
      {...rest}
      onValueChange={(raw) => onValueChange(digitsOnly(raw, maxDigits))}
    />
  );
}

type MoneyFieldProps = Omit<TextFieldProps, 'inputMode' | 'type' | 'pending'>;

/**
 * An amount of pounds: '£' shown before the input (decorative: the label names the amount), the
 * decimal keyboard on phones, two decimals at most, shown with two decimals once left.
 */
export function MoneyField({
  label,
  value,
  onValueChange,
  error,
  invalid,
  hint,
  describedBy,
  id,
  className,
  onBlur,
  ...rest
}: MoneyFieldProps) {
  const ids = useFieldIds(id, hint, error, describedBy);
  const isInvalid = Boolean(error) || Boolean(invalid);
  const handleBlur = (event: FocusEvent<HTMLInputElement>) => {
    const tidy = moneyOnLeave(value);
    if (tidy !== value) onValueChange(tidy);
    onBlur?.(event);
  };
  return (
    <div className={fieldClass(isInvalid, className)}>
      <label className="field__label" htmlFor={ids.controlId}>
        {label}
      </label>
      <div className="field__control field__control--prefixed">
        <span className="field__prefix" aria-hidden="true">
          £
        </span>
        <input
          id={ids.controlId}
          className="field__input"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          aria-invalid={isInvalid || undefined}
          aria-describedby={ids.describers}
          onChange={(event) => onValueChange(moneyInput(event.target.value))}
          onBlur={handleBlur}
          {...rest}
        />
      </div>
      <FieldHint id={ids.hintId} hint={hint} />
      <ErrorSlot id={ids.errorId} error={error} />
    </div>
  );
}
