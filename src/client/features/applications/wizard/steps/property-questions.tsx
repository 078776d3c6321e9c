import { Button } from '../../../../ui/button';
import { RadioField, SelectField, YesNoField } from '../../../../ui/choice-fields';
import { TextField } from '../../../../ui/field';
import { MoneyField, moneyInput } from '../../../../ui/number-field';
import { addressEntryTypes } from '../../../../../shared/journey/options';
import { formatPostcode, normalizePostcode } from '../../../../../shared/journey/address';
import type { AssetLabels } from './asset-labels';
import { lookupMessage, usePostcodeLookup } from './postcode-lookup';
import type { AssetStepValues } from './asset-values';

/** What every section of the step gets from the form. */
export interface SectionProps {
  values: AssetStepValues;
  set: (patch: Partial<AssetStepValues>) => void;
  errors: Readonly<Record<string, string>>;
  onTouch: (path: string) => void;
  labels: AssetLabels;
  disabled: boolean;
}

/** A percentage (0 to 100, up to two decimals): the decimal keyboard, digits and one point only. */
export function PercentField(props: Omit<Parameters<typeof TextField>[0], 'inputMode' | 'type'>) {
  const { onValueChange, ...rest } = props;
  return <TextField inputMode="decimal" autoComplete="off" {...rest} onValueChange={(raw) => onValueChange(moneyInput(raw))} />;
}

/**
 * Postcode, then the addresses found to pick from (steps/postcode-lookup.ts, shared with the
 * address history: normalised, at most one lookup per 500 ms, and a word when offline).
 */
function PostcodeAddress({ values, set, errors, onTouch, labels, disabled }: SectionProps) {
  const { state, lookup, reset } = usePostcodeLookup();
  const message = lookupMessage(state);

  const setPostcode = (postcode: string) => {
    // A picked address belongs to its postcode: a different postcode needs a new pick.
    const changed = normalizePostcode(postcode) !== normalizePostcode(values.postcode);
    set({ postcode, ...(changed ? { address: '' } : {}) });
    if (normalizePostcode(postcode) === '') reset();
    else lookup(postcode);
  };

  const found = state.status === 'found' ? state.addresses : [];
  // The saved address stays a choice even before (or without) a new lookup.
  const choices = values.address && !found.includes(values.address) ? [values.address, ...found] : found;

  return (
    <>
      <TextField
        label={labels.postcode}
        value={values.postcode}
        onValueChange={setPostcode}
        onBlur={() => onTouch('postcode')}
        error={errors.postcode}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        disabled={disabled}
        pending={state.status === 'loading' ? 'Finding addresses' : undefined}
      />
      <div className="postcode-lookup">
        <Button
          variant="secondary"
          onClick={() => lookup(values.postcode, true)}
          disabled={disabled || normalizePostcode(values.postcode) === ''}
        >
          Find address
        </Button>
        <Button
          variant="link"
          onClick={() => {
            reset();
            set({ addressType: 'manually', postcode: formatPostcode(values.postcode) });
          }}
          disabled={disabled}
        >
          Enter address manually
        </Button>
      </div>
      <div role="status" aria-live="polite">
        {message ? <p className="uploads__message uploads__message--info">{message}</p> : null}
      </div>
      {choices.length > 0 ? (
        <SelectField
          label={labels.address}
          value={values.address}
          onValueChange={(address) => set({ address, ...(address ? { postcode: formatPostcode(values.postcode) } : {}) })}
          onBlur={() => onTouch('address')}
          options={choices.map((address) => ({ value: address, label: address }))}
          placeholder={`${choices.length} ${choices.length === 1 ? 'address' : 'addresses'} found: choose one`}
          error={errors.address}
          disabled={disabled}
        />
      ) : errors.address ? (
        <p className="field__error">{errors.address}</p>
      ) : null}
    </>
  );
}

function ManualAddress({ values, set, errors, onTouch, labels, disabled }: SectionProps) {
  return (
    <>
      <TextField
        label={labels.house}
        value={values.house}
        onValueChange={(house) => set({ house })}
        onBlur={() => onTouch('house')}
        error={errors.house}
        disabled={disabled}
      />
      <TextField
        label={labels.street}
        value={values.street}
        onValueChange={(street) => set({ street })}
        onBlur={() => onTouch('street')}
        error={errors.street}
        autoComplete="address-line1"
        disabled={disabled}
      />
      <TextField
        label={labels.city}
        value={values.city}
        onValueChange={(city) => set({ city })}
        onBlur={() => onTouch('city')}
        error={errors.city}
        autoComplete="address-level2"
        disabled={disabled}
      />
      <TextField
        label={labels.postcode}
        value={values.postcode}
        onValueChange={(postcode) => set({ postcode })}
        onBlur={() => {
          const tidy = formatPostcode(values.postcode);
          if (tidy !== values.postcode) set({ postcode: tidy });
          onTouch('postcode');
        }}
        error={errors.postcode}
        autoComplete="postal-code"
        autoCapitalize="characters"
        disabled={disabled}
      />
    </>
  );
}

/** Without Form E: the additional property, its address, value, mortgage and the client's share. */
export function PropertyQuestions(props: SectionProps) {
  const { values, set, errors, onTouch, labels, disabled } = props;
  return (
    <section className="step-section" aria-labelledby="asset-property-heading">
      <h2 className="step-section__title" id="asset-property-heading">
        Property
      </h2>
      <YesNoField
        label={labels.additionalProperty}
        value={values.additionalProperty}
        onValueChange={(additionalProperty) => set({ additionalProperty })}
        onBlur={() => onTouch('additionalProperty')}
        error={errors.additionalProperty}
        disabled={disabled}
      />
      {values.additionalProperty === true ? (
        <div className="step-branch">
          <RadioField
            label={labels.addressType}
            value={values.addressType}
            onValueChange={(addressType) => set({ addressType: addressType as AssetStepValues['addressType'] })}
            onBlur={() => onTouch('addressType')}
            options={addressEntryTypes}
            orientation="horizontal"
            error={errors.addressType}
            disabled={disabled}
          />
          {values.addressType === 'postcode' ? <PostcodeAddress {...props} /> : null}
          {values.addressType === 'manually' ? <ManualAddress {...props} /> : null}
          <MoneyField
            label={labels.estimatedValue}
            value={values.estimatedValue}
            onValueChange={(estimatedValue) => set({ estimatedValue })}
            onBlur={() => onTouch('estimatedValue')}
            error={errors.estimatedValue}
            disabled={disabled}
          />
          <MoneyField
            label={labels.totalSum}
            value={values.totalSum}
            onValueChange={(totalSum) => set({ totalSum })}
            onBlur={() => onTouch('totalSum')}
            error={errors.totalSum}
            disabled={disabled}
          />
          <PercentField
            label={labels.clientInterest}
            value={values.clientInterest}
            onValueChange={(clientInterest) => set({ clientInterest })}
            onBlur={() => onTouch('clientInterest')}
            error={errors.clientInterest}
            disabled={disabled}
          />
        </div>
      ) : null}
    </section>
  );
}
