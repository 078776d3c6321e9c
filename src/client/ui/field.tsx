import { useId, type InputHTMLAttributes } from 'react';
import { TEXT_MAX_LENGTH } from '../../shared/rules/limits';
import { Spinner } from './spinner';
import './field.css';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The message to show; null when there is none to show. */
  error?: string | null;
  /** Marked invalid without a message of its own (the spec's 'empty' code). */
  invalid?: boolean;
  hint?: string;
  /** Ids of other elements that describe this field (e.g. a form-level message). */
  describedBy?: string;
  /**
   * Work under way for this field, in words ('Checking your link'): a spinner inside the input
   * and the words as its placeholder. Shown in the field itself, so nothing moves when it ends.
   */
  pending?: string;
}

/**
 * A labelled text input. The hint and the error are tied to it with aria-describedby; the error is
 * announced when it appears. Input is cut to the maximum length (spec: default 100000).
 */
export function TextField({
  label,
  value,
  onValueChange,
  error,
  invalid,
  hint,
  describedBy,
  pending,
  maxLength = TEXT_MAX_LENGTH,
  id,
  className,
  placeholder,
  ...rest
}: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const isInvalid = Boolean(error) || Boolean(invalid);
  const describers = [hint ? hintId : null, error ? errorId : null, describedBy ?? null].filter(Boolean).join(' ');
  return (
    <div className={['field', isInvalid ? 'field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className={pending ? 'field__control field__control--pending' : 'field__control'}>
        <input
          id={inputId}
          className="field__input"
          value={value}
          maxLength={maxLength}
          placeholder={pending ? `${pending}…` : placeholder}
          aria-invalid={isInvalid || undefined}
          aria-describedby={describers || undefined}
          aria-busy={pending ? true : undefined}
          onChange={(event) => onValueChange(event.target.value.slice(0, maxLength))}
          {...rest}
        />
        {pending ? (
          <span className="field__pending">
            <Spinner label={pending} />
          </span>
        ) : null}
      </div>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {/* Always there and one line high: a message appearing moves nothing (and is announced). */}
      <div className="field__error-slot" aria-live="polite">
        {error ? (
          <p id={errorId} className="field__error">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** The account email: the right keyboard, autofill and no spell check, everywhere it is asked. */
export function EmailField(props: Omit<TextFieldProps, 'label' | 'type'>) {
  return <TextField label="Email" type="email" inputMode="email" autoComplete="username" spellCheck={false} {...props} />;
}
