import * as v from 'valibot';
import { fieldLabel } from '../../../../../shared/journey/labels';
import type { JourneyData } from '../../../../../shared/journey/steps';
import { CheckboxField } from '../../../../ui/choice-fields';
import type { StepDefinition, StepFormProps } from './step-definition';
import { checkboxProps, compact, draftTick, parseDraftWith, tickOut } from './step-fields';

/** The client's own confirmation: one statement to tick. */
export interface ClientValues {
  clientAgree: boolean;
}

const empty = (): ClientValues => ({ clientAgree: false });

function fromJourney(data: JourneyData['client'] | undefined): ClientValues {
  return { clientAgree: data?.clientAgree === true };
}

function toJourney(values: ClientValues): JourneyData['client'] {
  return compact({ clientAgree: tickOut(values.clientAgree) });
}

const draftSchema = v.object({ clientAgree: draftTick });

function ClientForm(form: StepFormProps<ClientValues>) {
  return (
    <div className="step-form">
      <p>
        {form.audience === 'customer'
          ? 'Please read your answers again before you confirm them. Your lawyer and the funder rely on them.'
          : 'Your client confirms their answers on this step.'}
      </p>
      <CheckboxField label={fieldLabel('client', 'clientAgree', form.audience)} {...checkboxProps(form, 'clientAgree')} />
    </div>
  );
}

export const clientStep: StepDefinition<'client', ClientValues> = {
  step: 'client',
  empty,
  fromJourney,
  toJourney,
  parseDraft: (stored) => parseDraftWith(draftSchema, stored),
  Form: ClientForm,
};
