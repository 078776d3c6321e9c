import * as v from 'valibot';
import type { StepFormProps } from './step-definition';
import { parseNumberInput } from '../../../../ui/number-field';

/**
 * Helpers shared by the step forms: binding a field to the form's values, errors and touches, and
 * the field-by-field repair of stored drafts.
 */

type StringKeys<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;
type BoolKeys<V> = { [K in keyof V]: V[K] extends boolean ? K : never }[keyof V] & string;
type YesNoKeys<V> = { [K in keyof V]: V[K] extends boolean | null ? (null extends V[K] ? K : never) : never }[keyof V] & string;

/** Props that tie a text-like control (TextField, NumberField, MoneyField, SelectField…) to one value. */
export function textProps<V>(form: StepFormProps<V>, key: StringKeys<V>) {
  return {
    value: form.values[key] as string,
    onValueChange: (value: string) => form.onChange({ ...form.values, [key]: value }),
    onBlur: () => form.onTouch(key),
    error: form.errors[key] ?? null,
    disabled: form.disabled,
  };
}

export function yesNoProps<V>(form: StepFormProps<V>, key: YesNoKeys<V>) {
  return {
    value: form.values[key] as boolean | null,
    onValueChange: (value: boolean) => form.onChange({ ...form.values, [key]: value }),
    onBlur: () => form.onTouch(key),
    error: form.errors[key] ?? null,
    disabled: form.disabled,
  };
}

export function checkboxProps<V>(form: StepFormProps<V>, key: BoolKeys<V>) {
  return {
    checked: form.values[key] as boolean,
    onCheckedChange: (checked: boolean) => form.onChange({ ...form.values, [key]: checked }),
    onBlur: () => form.onTouch(key),
    error: form.errors[key] ?? null,
    disabled: form.disabled,
  };
}

/* ── Values to journey data ────────────────────────────────────────────────────────────────── */

/** Text as the journey keeps it: trimmed, and absent when blank. */
export function textOut(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

export function numberOut(value: string): number | undefined {
  return parseNumberInput(value);
}

/** A Yes/No answer: absent while unanswered. */
export function yesNoOut(value: boolean | null): boolean | undefined {
  return value === null ? undefined : value;
}

/** A statement to tick: true when ticked, absent otherwise (an unticked box is not an answer). */
export function tickOut(value: boolean): true | undefined {
  return value ? true : undefined;
}

/** Drops absent keys, so the journey data holds only answers. */
export function compact<T extends object>(data: T): T {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined)) as T;
}

/* ── Journey data to values ────────────────────────────────────────────────────────────────── */

export function textIn(value: string | number | null | undefined): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return typeof value === 'string' ? value : '';
}

/** An amount shown with its two decimals when it has pence (12.5 → '12.50'). */
export function moneyIn(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function yesNoIn(value: boolean | null | undefined): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

/* ── Stored drafts: checked with valibot, repaired field by field ──────────────────────────── */

/** Text; a number (a draft kept before a field became text) becomes its digits; anything else ''. */
export const draftText = v.fallback(v.union([v.string(), v.pipe(v.number(), v.finite(), v.transform(String))]), '');
/** A Yes/No answer; 'yes'/'no' strings (an older shape) are read too; anything else unanswered. */
export const draftYesNo = v.fallback(
  v.union([
    v.boolean(),
    v.null(),
    v.pipe(
      v.picklist(['yes', 'no']),
      v.transform((answer) => answer === 'yes'),
    ),
  ]),
  null,
);
export const draftTick = v.fallback(v.boolean(), false);

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses a stored draft with a schema whose every field has a fallback: a wrong or missing field
 * takes its empty value and the rest is kept. Not an object at all: null (the draft is unusable).
 */
export function parseDraftWith<V>(schema: v.GenericSchema<unknown, V>, stored: unknown): V | null {
  if (!isRecord(stored)) return null;
  try {
    const result = v.safeParse(schema, stored);
    return result.success ? result.output : null;
  } catch {
    return null;
  }
}
