import { useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  formatPostcode,
  latestMovedInDay,
  monthOfDay,
  movedInDate,
  normalizePostcode,
} from '../../../../../shared/journey/address';
import { fieldLabel } from '../../../../../shared/journey/labels';
import { ADDRESS_HISTORY_MAX } from '../../../../../shared/rules/limits';
import { Button } from '../../../../ui/button';
import '../../../../ui/notice.css';
import { SelectField } from '../../../../ui/choice-fields';
import { MonthYearField } from '../../../../ui/date-fields';
import { TextField } from '../../../../ui/field';
import { ErrorSlot } from '../../../../ui/field-parts';
import type { Audience } from './step-definition';
import { lookupMessage, usePostcodeLookup } from './postcode-lookup';

/** One address of the history as the form keeps it: the moved-in month and year kept apart while chosen. */
export interface AddressEntryValues {
  type: 'postcode' | 'manually';
  postcode: string;
  /** The address picked from the lookup. */
  address: string;
  house: string;
  street: string;
  city: string;
  /** '1'..'12' or ''. */
  month: string;
  /** '2021' or ''. */
  year: string;
}

export function emptyAddress(): AddressEntryValues {
  return { type: 'postcode', postcode: '', address: '', house: '', street: '', city: '', month: '', year: '' };
}

/** Moved-in years: this year and the 99 before it, newest first. */
function movedInYears(today: Date) {
  const newest = today.getFullYear();
  return Array.from({ length: 100 }, (_, i) => ({ value: newest - i, label: String(newest - i) }));
}

interface AddressHistoryProps {
  entries: AddressEntryValues[];
  onChange: (entries: AddressEntryValues[]) => void;
  onTouch: (path: string) => void;
  errors: Readonly<Record<string, string>>;
  audience: Audience;
  disabled: boolean;
}

let keyCounter = 0;
const newKey = () => `address-${(keyCounter += 1)}`;

/**
 * The address history, latest first: the current address, then each earlier one. Each entry is
 * found by postcode or typed in by hand; manual entry needs no connection.
 */
export function AddressHistory({ entries, onChange, onTouch, errors, audience, disabled }: AddressHistoryProps) {
  const baseId = useId();
  // React keys live beside the values (not in them), so a draft holds only answers. They follow
  // the adds and removes made here; a list replaced from outside gets fresh keys.
  const keys = useRef<string[]>([]);
  if (keys.current.length !== entries.length) keys.current = entries.map(() => newKey());
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const years = useMemo(() => movedInYears(new Date()), []);
  // The latest month each entry may say, by the rule: never a month the rule would refuse.
  const latest = useMemo(() => {
    const dated = entries.map((entry) => ({ date: entryDate(entry) }));
    const today = new Date();
    return entries.map((_, index) => monthOfDay(latestMovedInDay(dated, index, today)));
  }, [entries]);

  useEffect(() => {
    if (!focusKey) return;
    document.getElementById(`${baseId}-${focusKey}-postcode`)?.focus();
    setFocusKey(null);
  }, [focusKey, baseId]);

  const update = (index: number, next: AddressEntryValues) => onChange(entries.map((entry, i) => (i === index ? next : entry)));
  const add = () => {
    const key = newKey();
    keys.current = [...keys.current, key];
    onChange([...entries, emptyAddress()]);
    setFocusKey(key);
  };
  const remove = (index: number) => {
    keys.current = keys.current.filter((_, i) => i !== index);
    onChange(entries.filter((_, i) => i !== index));
    addRef.current?.focus();
  };

  const listError = errors.addressHistory ?? null;
  const headingId = `${baseId}-heading`;
  return (
    <section className="step-form__section field--wide" aria-labelledby={headingId}>
      <h2 className="step-form__heading" id={headingId}>
        {fieldLabel('personal', 'addressHistory', audience)}
      </h2>
      {entries.length > 0 ? (
        <ol className="entry-list">
          {entries.map((entry, index) => (
            <li key={keys.current[index]}>
              <AddressEntry
                id={`${baseId}-${keys.current[index]}`}
                index={index}
                entry={entry}
                onChange={(next) => update(index, next)}
                onRemove={() => remove(index)}
                onTouch={onTouch}
                errors={errors}
                audience={audience}
                disabled={disabled}
                years={years}
                latest={latest[index]!}
              />
            </li>
          ))}
        </ol>
      ) : null}
      {entries.length < ADDRESS_HISTORY_MAX ? (
        <div className="inline-actions">
          {/* A plain button (the Button component takes no ref): focus returns here after a removal. */}
          <button ref={addRef} type="button" className="button button--secondary" onClick={add} disabled={disabled}>
            {entries.length === 0 ? 'Add an address' : 'Add a previous address'}
          </button>
        </div>
      ) : null}
      <ErrorSlot id={`${baseId}-error`} error={listError} />
    </section>
  );
}

/** An entry's moved-in date as the journey holds it, once both its month and year are chosen. */
export function entryDate(entry: AddressEntryValues): string | undefined {
  const month = Number(entry.month);
  const year = Number(entry.year);
  return entry.month && entry.year && Number.isInteger(month) && Number.isInteger(year) ? movedInDate(year, month) : undefined;
}

function entryTitle(index: number): string {
  return index === 0 ? 'Current address' : `Previous address ${index}`;
}

interface AddressEntryProps {
  id: string;
  index: number;
  entry: AddressEntryValues;
  onChange: (next: AddressEntryValues) => void;
  onRemove: () => void;
  onTouch: (path: string) => void;
  errors: Readonly<Record<string, string>>;
  audience: Audience;
  disabled: boolean;
  years: readonly { value: number; label: string }[];
  latest: { year: number; month: number };
}

function AddressEntry({
  id,
  index,
  entry,
  onChange,
  onRemove,
  onTouch,
  errors,
  audience,
  disabled,
  years,
  latest,
}: AddressEntryProps) {
  const path = (field: string) => `addressHistory.${index}.${field}`;
  const label = (field: string) => fieldLabel('personal', `addressHistory.${field}`, audience);
  const error = (field: string) => errors[path(field)] ?? null;
  const { state, lookup, reset } = usePostcodeLookup();
  const title = entryTitle(index);
  const message = lookupMessage(state);

  const text = (field: 'postcode' | 'house' | 'street' | 'city', extra: Partial<AddressEntryValues> = {}) => ({
    id: `${id}-${field}`,
    label: label(field),
    value: entry[field],
    error: error(field),
    disabled,
    onBlur: () => onTouch(path(field)),
    onValueChange: (value: string) => onChange({ ...entry, ...extra, [field]: value }),
  });

  const setPostcode = (value: string) => {
    const changed = normalizePostcode(value) !== normalizePostcode(entry.postcode);
    // A picked address belongs to its postcode: a different postcode needs a new pick.
    onChange({ ...entry, postcode: value, address: changed ? '' : entry.address });
    if (normalizePostcode(value) === '') reset();
    else lookup(value);
  };

  const found = state.status === 'found' ? state.addresses : [];
  const choices = entry.address && !found.includes(entry.address) ? [entry.address, ...found] : found;

  return (
    <div className="entry-card">
      <div className="entry-card__header">
        <h3 className="entry-card__title">{title}</h3>
        <Button variant="link" onClick={onRemove} disabled={disabled} aria-label={`Remove ${title.toLowerCase()}`}>
          Remove
        </Button>
      </div>
      {entry.type === 'postcode' ? (
        <>
          <TextField
            {...text('postcode')}
            onValueChange={setPostcode}
            autoComplete={audience === 'customer' ? 'postal-code' : 'off'}
            autoCapitalize="characters"
            spellCheck={false}
            pending={state.status === 'loading' ? 'Finding addresses' : undefined}
          />
          <div className="inline-actions">
            <Button
              variant="secondary"
              disabled={disabled || normalizePostcode(entry.postcode) === ''}
              onClick={() => lookup(entry.postcode, true)}
            >
              Find address
            </Button>
            <Button
              variant="link"
              disabled={disabled}
              onClick={() => {
                reset();
                onChange({ ...entry, type: 'manually', postcode: formatPostcode(entry.postcode) });
              }}
            >
              Enter address manually
            </Button>
          </div>
          <div role="status" aria-live="polite">
            {message ? <p className={state.status === 'none' ? 'notice' : 'notice notice--warning'}>{message}</p> : null}
          </div>
          {choices.length > 0 ? (
            <SelectField
              id={`${id}-address`}
              label={label('address')}
              value={entry.address}
              options={choices.map((address) => ({ value: address, label: address }))}
              placeholder={`${choices.length} ${choices.length === 1 ? 'address' : 'addresses'} found: choose one`}
              onValueChange={(address) =>
                onChange({ ...entry, address, postcode: address ? formatPostcode(entry.postcode) : entry.postcode })
              }
              onBlur={() => onTouch(path('address'))}
              error={error('address')}
              disabled={disabled}
            />
          ) : // The address's own message (required, already used) still shows before a lookup.
          error('address') ? (
            <ErrorSlot id={`${id}-address-error`} error={error('address')} />
          ) : null}
        </>
      ) : (
        <>
          <TextField
            {...text('postcode')}
            autoComplete={audience === 'customer' ? 'postal-code' : 'off'}
            autoCapitalize="characters"
            spellCheck={false}
          />
          <TextField {...text('house')} autoComplete="off" />
          <TextField {...text('street')} autoComplete="off" />
          <TextField {...text('city')} autoComplete="off" />
          <div className="inline-actions">
            <Button variant="link" disabled={disabled} onClick={() => onChange({ ...entry, type: 'postcode' })}>
              Find the address by postcode instead
            </Button>
          </div>
        </>
      )}
      <MonthYearField
        id={`${id}-date`}
        label={label('date')}
        value={{ month: entry.month, year: entry.year }}
        onValueChange={({ month, year }) => onChange({ ...entry, month, year })}
        years={years}
        latest={latest}
        onBlur={() => onTouch(path('date'))}
        error={error('date')}
        disabled={disabled}
      />
    </div>
  );
}
