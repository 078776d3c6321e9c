import * as v from 'valibot';
import { useCallback, useId, type FocusEvent, type ReactNode } from 'react';
import { RadioGroup } from '../../../../ui/radio-group';
import type { components } from '../../../../../shared/api/schema';
import { addressLines } from '../../../../../shared/journey/address';
import { fieldLabel, independentAdviceText } from '../../../../../shared/journey/labels';
import type { JourneyData } from '../../../../../shared/journey/steps';
import { formatMoney } from '../../../../../shared/rules/formats';
import { api } from '../../../../api/client';
import { isOnline } from '../../../../api/connection';
import { unwrap } from '../../../../api/failure';
import { useCachedQuery } from '../../../../offline/cache';
import { Button } from '../../../../ui/button';
import '../../../../ui/notice.css';
import { CheckboxField } from '../../../../ui/choice-fields';
import { ErrorSlot, leftGroup } from '../../../../ui/field-parts';
import { Spinner } from '../../../../ui/spinner';
import type { StepDefinition, StepFormProps } from './step-definition';
import { checkboxProps, compact, draftText, draftTick, parseDraftWith, tickOut } from './step-fields';

type Solicitor = components['schemas']['Solicitor'];
type SolicitorList = components['schemas']['SolicitorList'];

/** The independent advice form's values; the chosen solicitor's id as text ('' for none). */
export interface IndependentValues {
  solicitorId: string;
  useOwnSolicitor: boolean;
  consent: boolean;
  authorised: boolean;
}

/** The picker shows up to this many solicitors (the contract's largest page). */
const SOLICITOR_PAGE_SIZE = 100;

const empty = (): IndependentValues => ({ solicitorId: '', useOwnSolicitor: false, consent: false, authorised: false });

function fromJourney(data: JourneyData['independent'] | undefined): IndependentValues {
  return {
    solicitorId: typeof data?.solicitorId === 'number' ? String(data.solicitorId) : '',
    useOwnSolicitor: data?.useOwnSolicitor === true,
    consent: data?.consent === true,
    authorised: data?.authorised === true,
  };
}

function toJourney(values: IndependentValues): JourneyData['independent'] {
  const id = Number(values.solicitorId);
  return compact({
    // With their own solicitor the list's choice is not an answer (it stays in the draft).
    solicitorId: !values.useOwnSolicitor && values.solicitorId !== '' && Number.isInteger(id) && id > 0 ? id : undefined,
    useOwnSolicitor: tickOut(values.useOwnSolicitor),
    consent: tickOut(values.consent),
    authorised: tickOut(values.authorised),
  });
}

const draftSchema = v.object({
  solicitorId: draftText,
  useOwnSolicitor: draftTick,
  consent: draftTick,
  authorised: draftTick,
});

/** The solicitor's address on one line, each part once (the lookup line and its parts are both stored). */
function solicitorAddress(solicitor: Solicitor): string {
  return addressLines(solicitor.address).join(', ');
}

function isOffline(): boolean {
  return !isOnline();
}

/** The solicitors the picker offers (and the summary names), with the device's copy offline. */
export function useSolicitorList() {
  const fetcher = useCallback(
    async (): Promise<SolicitorList> =>
      unwrap(await api.GET('/solicitors', { params: { query: { page: 1, pageSize: SOLICITOR_PAGE_SIZE } } })),
    [],
  );
  return useCachedQuery(`solicitors?pageSize=${SOLICITOR_PAGE_SIZE}`, fetcher);
}

function SolicitorPicker({ form }: { form: StepFormProps<IndependentValues> }) {
  const { values, onChange, onTouch, errors, audience, disabled } = form;
  const query = useSolicitorList();
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const error = errors.solicitorId ?? null;
  const solicitors = (query.data?.items ?? []).filter(
    (solicitor) => solicitor.state !== 'inactive' || String(solicitor.id) === values.solicitorId,
  );
  const chosenKnown = solicitors.some((solicitor) => String(solicitor.id) === values.solicitorId);

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (leftGroup(event)) onTouch('solicitorId');
  };

  let status: ReactNode = null;
  if (query.loading && !query.data) status = <Spinner label="Loading solicitors" />;
  else if (!query.data) {
    status = (
      <div className="notice notice--warning">
        <p>
          {isOffline()
            ? 'The list of solicitors needs a connection. Any choice already made is kept.'
            : 'The list of solicitors could not be loaded. Any choice already made is kept.'}
        </p>
        <Button variant="secondary" onClick={query.reload}>
          Try again
        </Button>
      </div>
    );
  } else if (query.fromCache) {
    status = <p className="notice">You are offline: this is the list of solicitors saved on this device.</p>;
  } else if (solicitors.length === 0) {
    status = <p className="notice">No solicitors are available yet.</p>;
  }

  return (
    <div className={['field', 'field--group', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
      <span className="field__label" id={labelId}>
        {fieldLabel('independent', 'solicitorId', audience)}
      </span>
      <div aria-live="polite">{status}</div>
      {values.solicitorId !== '' && !chosenKnown && !query.loading ? (
        <p className="field__hint">A solicitor was chosen; their details show when the list can be loaded.</p>
      ) : null}
      {solicitors.length > 0 ? (
        <RadioGroup.Root
          className="choice-group choice-group--vertical"
          value={values.solicitorId}
          onValueChange={(solicitorId) => onChange({ ...values, solicitorId })}
          disabled={disabled}
          aria-labelledby={labelId}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
          onBlur={onBlur}
        >
          {solicitors.map((solicitor) => {
            const optionId = `${id}-${solicitor.id}`;
            const address = solicitorAddress(solicitor);
            return (
              <label key={solicitor.id} className="choice solicitor-option" htmlFor={optionId}>
                <RadioGroup.Item
                  id={optionId}
                  className="choice__radio"
                  value={String(solicitor.id)}
                  aria-describedby={`${optionId}-meta`}
                >
                  <RadioGroup.Indicator className="choice__radio-dot" />
                </RadioGroup.Item>
                <span className="solicitor-option__text">
                  <span className="choice__label">{solicitor.name}</span>
                  <span className="solicitor-option__meta" id={`${optionId}-meta`}>
                    {address ? `${address}. ` : ''}Fee {formatMoney(solicitor.fee)}
                  </span>
                </span>
              </label>
            );
          })}
        </RadioGroup.Root>
      ) : null}
      <ErrorSlot id={errorId} error={error} />
    </div>
  );
}

function IndependentForm(form: StepFormProps<IndependentValues>) {
  const { values, audience } = form;
  const label = (field: string) => fieldLabel('independent', field, audience);
  return (
    <div className="step-form">
      <p className="notice">{independentAdviceText(audience)}</p>
      {values.useOwnSolicitor ? null : <SolicitorPicker form={form} />}
      <CheckboxField label={label('useOwnSolicitor')} {...checkboxProps(form, 'useOwnSolicitor')} />
      {audience === 'lawyer' ? (
        <>
          <CheckboxField label={label('consent')} {...checkboxProps(form, 'consent')} />
          <CheckboxField label={label('authorised')} {...checkboxProps(form, 'authorised')} />
        </>
      ) : null}
    </div>
  );
}

export const independentStep: StepDefinition<'independent', IndependentValues> = {
  step: 'independent',
  empty,
  fromJourney,
  toJourney,
  parseDraft: (stored) => parseDraftWith(draftSchema, stored),
  Form: IndependentForm,
};
