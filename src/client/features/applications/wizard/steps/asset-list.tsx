import { useRef } from 'react';
import { Button } from '../../../../ui/button';
import { SelectField, YesNoField } from '../../../../ui/choice-fields';
import { TextField } from '../../../../ui/field';
import { MoneyField } from '../../../../ui/number-field';
import { assetTypes } from '../../../../../shared/journey/options';
import { ASSETS_MAX } from '../../../../../shared/rules/limits';
import { emptyAsset, type AssetItemValues, type AssetStepValues } from './asset-values';
import { PercentField, type SectionProps } from './property-questions';

/**
 * Without Form E: whether there are other assets, then the assets themselves, added and removed one
 * by one. Removing needs no confirmation (the spec confirms file deletion, not form rows); focus
 * moves to the next asset, or to 'Add asset' after the last one.
 */
export function AssetList({ values, set, errors, onTouch, labels, disabled }: SectionProps) {
  const rows = useRef(new Map<string, HTMLElement>());
  const addArea = useRef<HTMLDivElement>(null);

  const update = (id: string, patch: Partial<AssetItemValues>) =>
    set({ assets: values.assets.map((item) => (item.id === id ? { ...item, ...patch } : item)) });

  const add = () => {
    const item = emptyAsset();
    set({ assets: [...values.assets, item] });
    // Once the new row is on screen, its first question gets the focus.
    requestAnimationFrame(() => rows.current.get(item.id)?.querySelector<HTMLElement>('select, input')?.focus());
  };

  const remove = (index: number) => {
    const next = values.assets[index + 1] ?? null;
    set({ assets: values.assets.filter((_, i) => i !== index) });
    requestAnimationFrame(() => {
      const target = next
        ? rows.current.get(next.id)?.querySelector<HTMLElement>('select, input')
        : addArea.current?.querySelector('button');
      target?.focus();
    });
  };

  const answerOtherAssets = (includeOtherAssets: boolean) => {
    // Yes with no asset yet opens the first one, so the user sees what is asked.
    const assets = includeOtherAssets && values.assets.length === 0 ? [emptyAsset()] : values.assets;
    set({ includeOtherAssets, assets });
  };

  return (
    <section className="step-section" aria-labelledby="asset-other-heading">
      <h2 className="step-section__title" id="asset-other-heading">
        Other assets
      </h2>
      <YesNoField
        label={labels.includeOtherAssets}
        value={values.includeOtherAssets}
        onValueChange={answerOtherAssets}
        onBlur={() => onTouch('includeOtherAssets')}
        error={errors.includeOtherAssets}
        disabled={disabled}
      />
      {values.includeOtherAssets === true ? (
        <div className="step-branch">
          {errors.assets ? (
            <p className="field__error" role="alert">
              {errors.assets}
            </p>
          ) : null}
          <ol className="asset-list">
            {values.assets.map((item, index) => {
              const path = `assets.${index}`;
              const number = index + 1;
              return (
                <li
                  key={item.id}
                  className="asset-list__item"
                  ref={(element) => {
                    if (element) rows.current.set(item.id, element);
                    else rows.current.delete(item.id);
                  }}
                >
                  <fieldset className="asset-card">
                    <legend className="asset-card__legend">Asset {number}</legend>
                    <SelectField
                      label={labels.assetType}
                      value={item.type}
                      onValueChange={(type) => update(item.id, { type: type as AssetStepValues['assets'][number]['type'] })}
                      onBlur={() => onTouch(`${path}.type`)}
                      options={assetTypes}
                      error={errors[`${path}.type`]}
                      disabled={disabled}
                    />
                    {item.type === 'other' ? (
                      <TextField
                        label={labels.typeoOther}
                        value={item.typeoOther}
                        onValueChange={(typeoOther) => update(item.id, { typeoOther })}
                        onBlur={() => onTouch(`${path}.typeoOther`)}
                        error={errors[`${path}.typeoOther`]}
                        disabled={disabled}
                      />
                    ) : null}
                    <MoneyField
                      label={item.type === 'cashSums' ? labels.cashValueOfRealisable : labels.valueOfRealisable}
                      value={item.valueOfRealisable}
                      onValueChange={(valueOfRealisable) => update(item.id, { valueOfRealisable })}
                      onBlur={() => onTouch(`${path}.valueOfRealisable`)}
                      error={errors[`${path}.valueOfRealisable`]}
                      disabled={disabled}
                    />
                    <PercentField
                      label={labels.clientsInterest}
                      value={item.clientsInterest}
                      onValueChange={(clientsInterest) => update(item.id, { clientsInterest })}
                      onBlur={() => onTouch(`${path}.clientsInterest`)}
                      error={errors[`${path}.clientsInterest`]}
                      disabled={disabled}
                    />
                    <Button
                      variant="secondary"
                      className="asset-card__remove"
                      onClick={() => remove(index)}
                      disabled={disabled}
                      aria-label={`Remove asset ${number}`}
                    >
                      Remove asset
                    </Button>
                  </fieldset>
                </li>
              );
            })}
          </ol>
          <div ref={addArea} className="asset-list__add">
            <Button variant="secondary" onClick={add} disabled={disabled || values.assets.length >= ASSETS_MAX}>
              Add asset
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
