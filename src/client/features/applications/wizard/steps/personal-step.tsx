import * as v from 'valibot';
import { useMemo } from 'react';
import { isoDay } from '../../../../../shared/journey/address';
import { fieldLabel } from '../../../../../shared/journey/labels';
import {
  birthYears,
  days,
  dependantCounts,
  employmentStatuses,
  genders,
  isNonEmployed,
  months,
  nationalities,
  splitDateOptions,
  titles,
} from '../../../../../shared/journey/options';
import type { AddressHistoryEntry, JourneyData } from '../../../../../shared/journey/steps';
import { SelectField, YesNoField } from '../../../../ui/choice-fields';
import { TextField } from '../../../../ui/field';
import { NumberField } from '../../../../ui/number-field';
import { AddressHistory, emptyAddress, entryDate, type AddressEntryValues } from './address-history';
import { ClientInvitation } from '../../new/client-invitation';
import type { StepDefinition, StepFormProps } from './step-definition';
import {
  compact,
  draftText,
  draftYesNo,
  isRecord,
  numberOut,
  parseDraftWith,
  textIn,
  textOut,
  textProps,
  yesNoIn,
  yesNoOut,
  yesNoProps,
} from './step-fields';

export type { AddressEntryValues };

/** The client details form's values (strings while typing; Yes/No null while unanswered). */
export interface PersonalValues {
  firstName: string;
  lastName: string;
  preferedName: string;
  email: string;
  birthDayDay: string;
  birthMonth: string;
  birthYear: string;
  metClient: boolean | null;
  title: string;
  gender: string;
  nationality: string;
  contactNumber: string;
  dependants: boolean | null;
  dependantsUnder18: string;
  dependantsOther: string;
  addressHistory: AddressEntryValues[];
  status: string;
  occupation: string;
  employer: string;
  yearsWithEmployer: string;
}

function empty(): PersonalValues {
  return {
    firstName: '',
    lastName: '',
    preferedName: '',
    email: '',
    birthDayDay: '',
    birthMonth: '',
    birthYear: '',
    metClient: null,
    title: '',
    gender: '',
    nationality: '',
    contactNumber: '',
    dependants: null,
    dependantsUnder18: '',
    dependantsOther: '',
    addressHistory: [],
    status: '',
    occupation: '',
    employer: '',
    yearsWithEmployer: '',
  };
}

/** 'YYYY-MM-DD' → month and year as the selects keep them ('3', '2021'). */
function monthYearOf(date: unknown): { month: string; year: string } {
  if (isoDay(date) === null) return { month: '', year: '' };
  const iso = date as string;
  return { month: String(Number(iso.slice(5, 7))), year: iso.slice(0, 4) };
}

function addressIn(entry: AddressHistoryEntry): AddressEntryValues {
  return {
    type: entry.type === 'manually' ? 'manually' : 'postcode',
    postcode: textIn(entry.postcode),
    address: textIn(entry.address),
    house: textIn(entry.house),
    street: textIn(entry.street),
    city: textIn(entry.city),
    ...monthYearOf(entry.date),
  };
}

function addressOut(entry: AddressEntryValues): AddressHistoryEntry {
  const date = entryDate(entry);
  // Only the parts of the chosen way of entry go to the journey: the other way's typing stays in the draft.
  const parts =
    entry.type === 'manually'
      ? {
          postcode: textOut(entry.postcode),
          house: textOut(entry.house),
          street: textOut(entry.street),
          city: textOut(entry.city),
        }
      : { postcode: textOut(entry.postcode), address: textOut(entry.address) };
  return compact({ type: entry.type, ...parts, date });
}

function fromJourney(data: JourneyData['personal'] | undefined): PersonalValues {
  if (!data) return empty();
  return {
    firstName: textIn(data.firstName),
    lastName: textIn(data.lastName),
    preferedName: textIn(data.preferedName),
    email: textIn(data.email),
    birthDayDay: textIn(data.birthDayDay),
    birthMonth: textIn(data.birthMonth),
    birthYear: textIn(data.birthYear),
    metClient: yesNoIn(data.metClient),
    title: textIn(data.title),
    gender: textIn(data.gender),
    nationality: textIn(data.nationality),
    contactNumber: textIn(data.contactNumber),
    dependants: yesNoIn(data.dependants),
    dependantsUnder18: textIn(data.dependantsUnder18),
    dependantsOther: textIn(data.dependantsOther),
    addressHistory: (data.addressHistory ?? []).map(addressIn),
    status: textIn(data.status),
    occupation: textIn(data.occupation),
    employer: textIn(data.employer),
    yearsWithEmployer: textIn(data.yearsWithEmployer),
  };
}

function toJourney(values: PersonalValues): JourneyData['personal'] {
  const employed = !isNonEmployed(values.status);
  const counts = values.dependants === true;
  return compact({
    firstName: textOut(values.firstName),
    lastName: textOut(values.lastName),
    preferedName: textOut(values.preferedName),
    email: textOut(values.email),
    birthDayDay: numberOut(values.birthDayDay),
    birthMonth: numberOut(values.birthMonth),
    birthYear: numberOut(values.birthYear),
    metClient: yesNoOut(values.metClient),
    title: textOut(values.title) as JourneyData['personal']['title'],
    gender: textOut(values.gender) as JourneyData['personal']['gender'],
    nationality: textOut(values.nationality),
    contactNumber: textOut(values.contactNumber),
    dependants: yesNoOut(values.dependants),
    dependantsUnder18: counts ? numberOut(values.dependantsUnder18) : undefined,
    dependantsOther: counts ? numberOut(values.dependantsOther) : undefined,
    addressHistory: values.addressHistory.length > 0 ? values.addressHistory.map(addressOut) : undefined,
    status: textOut(values.status) as JourneyData['personal']['status'],
    occupation: employed ? textOut(values.occupation) : undefined,
    employer: employed ? textOut(values.employer) : undefined,
    yearsWithEmployer: employed ? numberOut(values.yearsWithEmployer) : undefined,
  });
}

/** An address entry of a stored draft; one kept in the journey's shape (a `date`) is read too. */
const draftAddress = v.pipe(
  v.unknown(),
  v.transform((stored): AddressEntryValues | null => {
    if (!isRecord(stored)) return null;
    const text = (key: string) => v.parse(draftText, stored[key]);
    const fromDate = monthYearOf(stored.date);
    return {
      type: stored.type === 'manually' ? 'manually' : 'postcode',
      postcode: text('postcode'),
      address: text('address'),
      house: text('house'),
      street: text('street'),
      city: text('city'),
      month: text('month') || fromDate.month,
      year: text('year') || fromDate.year,
    };
  }),
);

const draftSchema = v.object({
  firstName: draftText,
  lastName: draftText,
  preferedName: draftText,
  email: draftText,
  birthDayDay: draftText,
  birthMonth: draftText,
  birthYear: draftText,
  metClient: draftYesNo,
  title: draftText,
  gender: draftText,
  nationality: draftText,
  contactNumber: draftText,
  dependants: draftYesNo,
  dependantsUnder18: draftText,
  dependantsOther: draftText,
  addressHistory: v.fallback(
    v.pipe(
      v.array(draftAddress),
      v.transform((list) => list.filter((entry): entry is AddressEntryValues => entry !== null)),
    ),
    () => [],
  ),
  status: draftText,
  occupation: draftText,
  employer: draftText,
  yearsWithEmployer: draftText,
});

function parseDraft(stored: unknown): PersonalValues | null {
  return parseDraftWith(draftSchema, stored);
}

function PersonalForm(form: StepFormProps<PersonalValues>) {
  const { values, onChange, audience, disabled, errors, onTouch } = form;
  const label = (field: string) => fieldLabel('personal', field, audience);
  const years = useMemo(() => birthYears(new Date()), []);
  const birth = splitDateOptions(
    { day: values.birthDayDay, month: values.birthMonth, year: values.birthYear },
    { days, months, years },
  );
  const customer = audience === 'customer';
  const employed = !isNonEmployed(values.status);

  const setStatus = (status: string) =>
    // A non-employed status hides and clears occupation, employer and years (spec section 4).
    onChange(
      isNonEmployed(status) ? { ...values, status, occupation: '', employer: '', yearsWithEmployer: '' } : { ...values, status },
    );

  // A stored application has a numeric id; a new one (or one made offline) has none yet.
  const created = /^\d+$/.test(String(form.applicationId));
  return (
    <div className="step-form">
      <div className="step-form__grid">
        <SelectField
          label={label('title')}
          options={titles}
          autoComplete={customer ? 'honorific-prefix' : 'off'}
          {...textProps(form, 'title')}
        />
        <TextField label={label('firstName')} autoComplete={customer ? 'given-name' : 'off'} {...textProps(form, 'firstName')} />
        <TextField label={label('lastName')} autoComplete={customer ? 'family-name' : 'off'} {...textProps(form, 'lastName')} />
        <TextField
          label={label('preferedName')}
          autoComplete={customer ? 'nickname' : 'off'}
          {...textProps(form, 'preferedName')}
        />
        <TextField
          label={label('email')}
          type="email"
          inputMode="email"
          autoComplete={customer ? 'email' : 'off'}
          spellCheck={false}
          {...textProps(form, 'email')}
          // The client was invited at this address and signs in with it: it is fixed once the
          // application exists (the server refuses a change with 'emailLocked').
          readOnly={created}
          hint={
            created
              ? customer
                ? 'You sign in with this email address.'
                : 'Your client signs in with this email address.'
              : undefined
          }
        />
        {created && !customer && form.abilities?.inviteClient ? (
          // Before the client joins, a mistyped address is corrected here (decision 344).
          <ClientInvitation
            applicationId={Number(form.applicationId)}
            email={values.email}
            onSent={(email) => onChange({ ...values, email })}
          />
        ) : null}
        <TextField
          label={label('contactNumber')}
          type="tel"
          inputMode="tel"
          autoComplete={customer ? 'tel' : 'off'}
          {...textProps(form, 'contactNumber')}
        />
        <fieldset className="field field--group">
          <legend className="field__label">{label('birthDate')}</legend>
          <div className="field__parts">
            <SelectField
              className="field__part"
              label={label('birthDayDay')}
              options={birth.days}
              placeholder="Day"
              autoComplete={customer ? 'bday-day' : 'off'}
              {...textProps(form, 'birthDayDay')}
            />
            <SelectField
              className="field__part field__part--wide"
              label={label('birthMonth')}
              options={birth.months}
              placeholder="Month"
              autoComplete={customer ? 'bday-month' : 'off'}
              {...textProps(form, 'birthMonth')}
            />
            <SelectField
              className="field__part"
              label={label('birthYear')}
              options={birth.years}
              placeholder="Year"
              autoComplete={customer ? 'bday-year' : 'off'}
              {...textProps(form, 'birthYear')}
            />
          </div>
        </fieldset>
        <YesNoField label={label('metClient')} {...yesNoProps(form, 'metClient')} />
        <SelectField label={label('gender')} options={genders} {...textProps(form, 'gender')} />
        <SelectField label={label('nationality')} options={nationalities} {...textProps(form, 'nationality')} />
        <YesNoField label={label('dependants')} {...yesNoProps(form, 'dependants')} />
        {values.dependants === true ? (
          <div className="field-reveal field__parts">
            <SelectField
              className="field__part"
              label={label('dependantsUnder18')}
              options={dependantCounts}
              {...textProps(form, 'dependantsUnder18')}
            />
            <SelectField
              className="field__part"
              label={label('dependantsOther')}
              options={dependantCounts}
              {...textProps(form, 'dependantsOther')}
            />
          </div>
        ) : null}
      </div>
      <AddressHistory
        entries={values.addressHistory}
        onChange={(addressHistory) => onChange({ ...values, addressHistory })}
        onTouch={onTouch}
        errors={errors}
        audience={audience}
        disabled={disabled}
      />
      <div className="step-form__grid">
        <SelectField
          className="field--wide"
          label={label('status')}
          options={employmentStatuses}
          {...textProps(form, 'status')}
          onValueChange={setStatus}
        />
        {employed ? (
          <>
            <TextField
              label={label('occupation')}
              autoComplete={customer ? 'organization-title' : 'off'}
              {...textProps(form, 'occupation')}
            />
            <TextField
              label={label('employer')}
              autoComplete={customer ? 'organization' : 'off'}
              {...textProps(form, 'employer')}
            />
            <NumberField label={label('yearsWithEmployer')} maxDigits={3} {...textProps(form, 'yearsWithEmployer')} />
          </>
        ) : null}
      </div>
    </div>
  );
}

export const personalStep: StepDefinition<'personal', PersonalValues> = {
  step: 'personal',
  empty,
  fromJourney,
  toJourney,
  parseDraft,
  Form: PersonalForm,
};

/** Exposed for tests and for a new entry added elsewhere. */
export { emptyAddress };
