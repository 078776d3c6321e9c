import * as v from 'valibot';
import { fieldLabel } from '../../../../../shared/journey/labels';
import type { JourneyData } from '../../../../../shared/journey/steps';
import { MoneyField } from '../../../../ui/number-field';
import { TextAreaField } from '../../../../ui/text-area-field';
import type { StepDefinition, StepFormProps } from './step-definition';
import { compact, draftText, moneyIn, numberOut, parseDraftWith, textIn, textOut, textProps } from './step-fields';

/** The financial details: four amounts (typed strings) and the housing arrangements. */
export interface FinancialValues {
  estimationOfSettlementAmount: string;
  monthlyIncome: string;
  monthlyExpenditure: string;
  nonEssMonthlyExpenditure: string;
  intendedHousingArrangements: string;
}

const amounts = ['estimationOfSettlementAmount', 'monthlyIncome', 'monthlyExpenditure', 'nonEssMonthlyExpenditure'] as const;

const empty = (): FinancialValues => ({
  estimationOfSettlementAmount: '',
  monthlyIncome: '',
  monthlyExpenditure: '',
  nonEssMonthlyExpenditure: '',
  intendedHousingArrangements: '',
});

function fromJourney(data: JourneyData['financial'] | undefined): FinancialValues {
  return {
    estimationOfSettlementAmount: moneyIn(data?.estimationOfSettlementAmount),
    monthlyIncome: moneyIn(data?.monthlyIncome),
    monthlyExpenditure: moneyIn(data?.monthlyExpenditure),
    nonEssMonthlyExpenditure: moneyIn(data?.nonEssMonthlyExpenditure),
    intendedHousingArrangements: textIn(data?.intendedHousingArrangements),
  };
}

function toJourney(values: FinancialValues): JourneyData['financial'] {
  return compact({
    estimationOfSettlementAmount: numberOut(values.estimationOfSettlementAmount),
    monthlyIncome: numberOut(values.monthlyIncome),
    monthlyExpenditure: numberOut(values.monthlyExpenditure),
    nonEssMonthlyExpenditure: numberOut(values.nonEssMonthlyExpenditure),
    intendedHousingArrangements: textOut(values.intendedHousingArrangements),
  });
}

const draftSchema = v.object({
  estimationOfSettlementAmount: draftText,
  monthlyIncome: draftText,
  monthlyExpenditure: draftText,
  nonEssMonthlyExpenditure: draftText,
  intendedHousingArrangements: draftText,
});

function FinancialForm(form: StepFormProps<FinancialValues>) {
  const label = (field: string) => fieldLabel('financial', field, form.audience);
  return (
    <div className="step-form">
      <div className="step-form__grid">
        {amounts.map((field) => (
          <MoneyField key={field} label={label(field)} {...textProps(form, field)} />
        ))}
        <TextAreaField
          className="field--wide"
          label={label('intendedHousingArrangements')}
          {...textProps(form, 'intendedHousingArrangements')}
        />
      </div>
    </div>
  );
}

export const financialStep: StepDefinition<'financial', FinancialValues> = {
  step: 'financial',
  empty,
  fromJourney,
  toJourney,
  parseDraft: (stored) => parseDraftWith(draftSchema, stored),
  Form: FinancialForm,
};
