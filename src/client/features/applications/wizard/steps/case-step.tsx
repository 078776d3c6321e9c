import * as v from 'valibot';
import { useMemo } from 'react';
import { fieldLabel } from '../../../../../shared/journey/labels';
import { completionBands, disputeLevels } from '../../../../../shared/journey/options';
import { caseDetailFields } from '../../../../../shared/journey/required';
import type { JourneyData } from '../../../../../shared/journey/steps';
import { RadioField, YesNoField } from '../../../../ui/choice-fields';
import { DatePicker, parseIsoDate } from '../../../../ui/date-fields';
import { TextField } from '../../../../ui/field';
import { MoneyField, NumberField } from '../../../../ui/number-field';
import { TextAreaField } from '../../../../ui/text-area-field';
import type { StepDefinition, StepFormProps } from './step-definition';
import {
  compact,
  draftText,
  draftYesNo,
  moneyIn,
  numberOut,
  parseDraftWith,
  textIn,
  textOut,
  textProps,
  yesNoIn,
  yesNoOut,
  yesNoProps,
} from './step-fields';

type CaseData = JourneyData['case'];

/** The case details form's values. A details box keeps its text in the draft while its answer is No. */
export interface CaseValues {
  caseRef: string;
  associatedCaseReferences: string;
  timeEstimation: string;
  stageOfProceedings: string;
  disputeLevel: string;
  yearsMarried: string;
  settlementPrinciples: string;
  preNuptualAgreement: boolean | null;
  preNuptialDetails: string;
  completion: string;
  feeEstimate: string;
  feeEstimateToReach: string;
  relevantProceedings: boolean | null;
  relevantProceedingsDetails: string;
  jurisDisputes: boolean | null;
  jurisDisputesDetails: string;
  maintenancePaid: boolean | null;
  thirdPartyInvolvement: boolean | null;
  settlementOffer: boolean | null;
  clientReactionDetails: string;
  outstandingFees: string;
  clientSuffered: boolean | null;
  clientSufferedDetails: string;
  /** 'YYYY-MM-DD' or ''. */
  dateToKnowMore: string;
}

type Question = (typeof caseDetailFields)[number][0];
type Details = (typeof caseDetailFields)[number][1];

function empty(): CaseValues {
  return {
    caseRef: '',
    associatedCaseReferences: '',
    timeEstimation: '',
    stageOfProceedings: '',
    disputeLevel: '',
    yearsMarried: '',
    settlementPrinciples: '',
    preNuptualAgreement: null,
    preNuptialDetails: '',
    completion: '',
    feeEstimate: '',
    feeEstimateToReach: '',
    relevantProceedings: null,
    relevantProceedingsDetails: '',
    jurisDisputes: null,
    jurisDisputesDetails: '',
    maintenancePaid: null,
    thirdPartyInvolvement: null,
    settlementOffer: null,
    clientReactionDetails: '',
    outstandingFees: '',
    clientSuffered: null,
    clientSufferedDetails: '',
    dateToKnowMore: '',
  };
}

function fromJourney(data: CaseData | undefined): CaseValues {
  if (!data) return empty();
  return {
    caseRef: textIn(data.caseRef),
    associatedCaseReferences: textIn(data.associatedCaseReferences),
    timeEstimation: textIn(data.timeEstimation),
    stageOfProceedings: textIn(data.stageOfProceedings),
    disputeLevel: textIn(data.disputeLevel),
    yearsMarried: textIn(data.yearsMarried),
    settlementPrinciples: textIn(data.settlementPrinciples),
    preNuptualAgreement: yesNoIn(data.preNuptualAgreement),
    preNuptialDetails: textIn(data.preNuptialDetails),
    completion: textIn(data.completion),
    feeEstimate: moneyIn(data.feeEstimate),
    feeEstimateToReach: moneyIn(data.feeEstimateToReach),
    relevantProceedings: yesNoIn(data.relevantProceedings),
    relevantProceedingsDetails: textIn(data.relevantProceedingsDetails),
    jurisDisputes: yesNoIn(data.jurisDisputes),
    jurisDisputesDetails: textIn(data.jurisDisputesDetails),
    maintenancePaid: yesNoIn(data.maintenancePaid),
    thirdPartyInvolvement: yesNoIn(data.thirdPartyInvolvement),
    settlementOffer: yesNoIn(data.settlementOffer),
    clientReactionDetails: textIn(data.clientReactionDetails),
    outstandingFees: moneyIn(data.outstandingFees),
    clientSuffered: yesNoIn(data.clientSuffered),
    clientSufferedDetails: textIn(data.clientSufferedDetails),
    dateToKnowMore: parseIsoDate(data.dateToKnowMore) ? (data.dateToKnowMore as string) : '',
  };
}

function toJourney(values: CaseValues): CaseData {
  // A details box counts only while its question is answered Yes (it is hidden otherwise).
  const details = (question: Question, field: Details) => (values[question] === true ? textOut(values[field]) : undefined);
  return compact({
    caseRef: textOut(values.caseRef),
    associatedCaseReferences: textOut(values.associatedCaseReferences),
    timeEstimation: textOut(values.timeEstimation),
    stageOfProceedings: textOut(values.stageOfProceedings),
    disputeLevel: textOut(values.disputeLevel) as CaseData['disputeLevel'],
    yearsMarried: numberOut(values.yearsMarried),
    settlementPrinciples: textOut(values.settlementPrinciples),
    preNuptualAgreement: yesNoOut(values.preNuptualAgreement),
    preNuptialDetails: details('preNuptualAgreement', 'preNuptialDetails'),
    completion: textOut(values.completion) as CaseData['completion'],
    feeEstimate: numberOut(values.feeEstimate),
    feeEstimateToReach: numberOut(values.feeEstimateToReach),
    relevantProceedings: yesNoOut(values.relevantProceedings),
    relevantProceedingsDetails: details('relevantProceedings', 'relevantProceedingsDetails'),
    jurisDisputes: yesNoOut(values.jurisDisputes),
    jurisDisputesDetails: details('jurisDisputes', 'jurisDisputesDetails'),
    maintenancePaid: yesNoOut(values.maintenancePaid),
    thirdPartyInvolvement: yesNoOut(values.thirdPartyInvolvement),
    settlementOffer: yesNoOut(values.settlementOffer),
    clientReactionDetails: details('settlementOffer', 'clientReactionDetails'),
    outstandingFees: numberOut(values.outstandingFees),
    clientSuffered: yesNoOut(values.clientSuffered),
    clientSufferedDetails: details('clientSuffered', 'clientSufferedDetails'),
    dateToKnowMore: parseIsoDate(values.dateToKnowMore) ? values.dateToKnowMore : undefined,
  });
}

const draftSchema = v.object({
  caseRef: draftText,
  associatedCaseReferences: draftText,
  timeEstimation: draftText,
  stageOfProceedings: draftText,
  disputeLevel: draftText,
  yearsMarried: draftText,
  settlementPrinciples: draftText,
  preNuptualAgreement: draftYesNo,
  preNuptialDetails: draftText,
  completion: draftText,
  feeEstimate: draftText,
  feeEstimateToReach: draftText,
  relevantProceedings: draftYesNo,
  relevantProceedingsDetails: draftText,
  jurisDisputes: draftYesNo,
  jurisDisputesDetails: draftText,
  maintenancePaid: draftYesNo,
  thirdPartyInvolvement: draftYesNo,
  settlementOffer: draftYesNo,
  clientReactionDetails: draftText,
  outstandingFees: draftText,
  clientSuffered: draftYesNo,
  clientSufferedDetails: draftText,
  dateToKnowMore: v.fallback(
    v.pipe(
      v.string(),
      v.transform((value) => (parseIsoDate(value) ? value : '')),
    ),
    '',
  ),
});

/** Today as 'YYYY-MM-DD' on this device: more will be known on a later day, not an earlier one. */
function todayIso(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

function CaseForm(form: StepFormProps<CaseValues>) {
  const { values, audience } = form;
  const label = (field: string) => fieldLabel('case', field, audience);
  const min = useMemo(todayIso, []);

  const yesNoWithDetails = (question: Question, field: Details) => (
    <>
      <YesNoField label={label(question)} {...yesNoProps(form, question)} />
      {values[question] === true ? (
        <div className="field-reveal">
          <TextAreaField label={label(field)} {...textProps(form, field)} />
        </div>
      ) : null}
    </>
  );

  return (
    <div className="step-form">
      <div className="step-form__grid">
        <TextField label={label('caseRef')} autoComplete="off" {...textProps(form, 'caseRef')} />
        <TextField
          label={label('associatedCaseReferences')}
          autoComplete="off"
          {...textProps(form, 'associatedCaseReferences')}
        />
        <TextField label={label('timeEstimation')} autoComplete="off" {...textProps(form, 'timeEstimation')} />
        <TextField label={label('stageOfProceedings')} autoComplete="off" {...textProps(form, 'stageOfProceedings')} />
        <RadioField label={label('disputeLevel')} options={disputeLevels} {...textProps(form, 'disputeLevel')} />
        <NumberField label={label('yearsMarried')} maxDigits={3} {...textProps(form, 'yearsMarried')} />
        <TextAreaField
          className="field--wide"
          label={label('settlementPrinciples')}
          {...textProps(form, 'settlementPrinciples')}
        />
        {yesNoWithDetails('preNuptualAgreement', 'preNuptialDetails')}
        <RadioField
          label={label('completion')}
          options={completionBands}
          orientation="horizontal"
          {...textProps(form, 'completion')}
        />
        <MoneyField label={label('feeEstimate')} {...textProps(form, 'feeEstimate')} />
        <MoneyField label={label('feeEstimateToReach')} {...textProps(form, 'feeEstimateToReach')} />
        {yesNoWithDetails('relevantProceedings', 'relevantProceedingsDetails')}
        {yesNoWithDetails('jurisDisputes', 'jurisDisputesDetails')}
        <YesNoField label={label('maintenancePaid')} {...yesNoProps(form, 'maintenancePaid')} />
        <YesNoField label={label('thirdPartyInvolvement')} {...yesNoProps(form, 'thirdPartyInvolvement')} />
        {yesNoWithDetails('settlementOffer', 'clientReactionDetails')}
        <MoneyField label={label('outstandingFees')} {...textProps(form, 'outstandingFees')} />
        {yesNoWithDetails('clientSuffered', 'clientSufferedDetails')}
        <DatePicker label={label('dateToKnowMore')} min={min} {...textProps(form, 'dateToKnowMore')} />
      </div>
    </div>
  );
}

export const caseStep: StepDefinition<'case', CaseValues> = {
  step: 'case',
  empty,
  fromJourney,
  toJourney,
  parseDraft: (stored) => parseDraftWith(draftSchema, stored),
  Form: CaseForm,
};
