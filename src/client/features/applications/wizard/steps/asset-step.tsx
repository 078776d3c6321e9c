import { useRef } from 'react';
import { YesNoField } from '../../../../ui/choice-fields';
import { MoneyField } from '../../../../ui/number-field';
import { TextAreaField } from '../../../../ui/text-area-field';
import { assetLabels } from './asset-labels';
import { AssetList } from './asset-list';
import {
  assetValuesFromJourney,
  assetValuesToJourney,
  emptyAssetValues,
  parseAssetDraft,
  type AssetStepValues,
  type DocumentRef,
} from './asset-values';
import { FormEDocuments } from './documents-upload';
import { PropertyQuestions, type SectionProps } from './property-questions';
import type { StepDefinition, StepFormProps } from './step-definition';
import './asset-step.css';

export { documentsForLeave } from './asset-values';
export type { AssetStepValues } from './asset-values';

/**
 * Supporting documents and assets (stage 'a'; the client's 'Asset Information'). Spec: a Form E
 * choice; with Form E the user uploads documents, without it they answer the property and asset
 * questions and can add assets; the total value of assets and the route to repayment are always
 * asked. Answers of the branch not chosen stay in the draft (switching back restores them) but are
 * not sent (assetValuesToJourney).
 */
function AssetStepForm({
  values,
  onChange,
  onTouch,
  errors,
  audience,
  applicationId,
  disabled,
  abilities,
}: StepFormProps<AssetStepValues>) {
  // The server lists the document types the caller may add or remove now; an application not on
  // the server yet is the creator's own, whose Form E documents wait on the device.
  const documentsLocked = abilities !== undefined && !abilities.changeDocuments.includes('formE');
  const labels = assetLabels(audience);
  // The latest values, also after an await or two changes in one event: no change is lost.
  const latest = useRef(values);
  latest.current = values;
  const set = (patch: Partial<AssetStepValues>) => {
    const next = { ...latest.current, ...patch };
    latest.current = next;
    onChange(next);
  };
  const section: SectionProps = { values, set, errors, onTouch, labels, disabled };

  return (
    <div className="step-form">
      <YesNoField
        label={labels.submittedFormE}
        value={values.submittedFormE}
        onValueChange={(submittedFormE) => set({ submittedFormE })}
        onBlur={() => onTouch('submittedFormE')}
        error={errors.submittedFormE}
        disabled={disabled}
      />
      {values.submittedFormE === true ? (
        <FormEDocuments
          applicationId={applicationId}
          documents={values.documents}
          onDocumentsChange={(documents: DocumentRef[]) => set({ documents })}
          label={labels.documents}
          hint={labels.documentsHint}
          error={errors.documents}
          disabled={disabled || documentsLocked}
        />
      ) : null}
      {values.submittedFormE === false ? (
        <>
          <PropertyQuestions {...section} />
          <AssetList {...section} />
          <TextAreaField
            label={labels.additionalInformation}
            value={values.additionalInformation}
            onValueChange={(additionalInformation) => set({ additionalInformation })}
            onBlur={() => onTouch('additionalInformation')}
            error={errors.additionalInformation}
            disabled={disabled}
          />
        </>
      ) : null}
      <section className="step-section" aria-labelledby="asset-repayment-heading">
        <h2 className="step-section__title" id="asset-repayment-heading">
          Assets and repayment
        </h2>
        <MoneyField
          label={labels.assetValue}
          value={values.assetValue}
          onValueChange={(assetValue) => set({ assetValue })}
          onBlur={() => onTouch('assetValue')}
          error={errors.assetValue}
          disabled={disabled}
        />
        <TextAreaField
          label={labels.routeToRepayment}
          value={values.routeToRepayment}
          onValueChange={(routeToRepayment) => set({ routeToRepayment })}
          onBlur={() => onTouch('routeToRepayment')}
          error={errors.routeToRepayment}
          disabled={disabled}
        />
      </section>
    </div>
  );
}

export const assetStep: StepDefinition<'asset', AssetStepValues> = {
  step: 'asset',
  empty: emptyAssetValues,
  fromJourney: assetValuesFromJourney,
  toJourney: assetValuesToJourney,
  parseDraft: parseAssetDraft,
  Form: AssetStepForm,
};
