import type { FocusEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import * as v from 'valibot';
import {
  feeSchema,
  solicitorAddressParts,
  solicitorAddressSchema,
  solicitorCreateSchema,
  type SolicitorCreateInput,
} from '../../../shared/schemas/administration';
import { useLeaveConfirmation } from '../../routing/leave-confirmation';
import { TextField } from '../../ui/field';
import { MoneyField } from '../../ui/number-field';
import { ErrorSlot, FieldHint, leftGroup } from '../../ui/field-parts';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import type { useForm } from '../../ui/use-form';
import { useKeptRecordForm } from '../../offline/kept-record-form';
import type { ApiAnswer } from '../../api/failure';
import type { Solicitor } from '../../admin-kit/calls';
import { useSaveForm, type ChangedFields } from '../../admin-kit/save-form';
import { useFieldsFollow } from '../../admin-kit/follow-record';
import './solicitors.css';

/**
 * The solicitor form: the address as its five parts (at least one), the fee in pounds. The form's
 * schema is the shared one, over the strings the inputs hold: each field keeps the shared rule,
 * and the address check is the shared address schema's.
 */
const solicitorFields = ['name', ...solicitorAddressParts, 'contactNumber', 'email', 'fee', 'deliveryMethod'] as const;
export type SolicitorField = (typeof solicitorFields)[number];
export type SolicitorValues = Record<SolicitorField, string>;

const { name, contactNumber, email, deliveryMethod } = solicitorCreateSchema.entries;
const part = v.string();

type AddressParts = Pick<SolicitorValues, (typeof solicitorAddressParts)[number]>;
const addressOf = (values: AddressParts) =>
  Object.fromEntries(solicitorAddressParts.map((key) => [key, values[key]])) as AddressParts;

const solicitorFormSchema = v.pipe(
  v.object({
    name,
    postcode: part,
    address: part,
    house: part,
    street: part,
    city: part,
    contactNumber,
    email,
    fee: v.pipe(v.string('required'), v.trim(), v.nonEmpty('required'), v.transform(Number), feeSchema),
    deliveryMethod,
  }),
  // Shown once for the whole address (its group's message), carried by the 'address' key.
  v.forward(
    v.partialCheck(
      [['postcode'], ['address'], ['house'], ['street'], ['city']],
      (input) => v.is(solicitorAddressSchema, addressOf(input)),
      'required',
    ),
    ['address'],
  ),
);

export type SolicitorFormOutput = v.InferOutput<typeof solicitorFormSchema>;

/** The contract's body: the address as an object of its non-empty parts. */
function solicitorBody(output: SolicitorFormOutput): SolicitorCreateInput {
  return {
    name: output.name,
    address: v.parse(solicitorAddressSchema, addressOf(output)),
    contactNumber: output.contactNumber,
    email: output.email,
    fee: output.fee,
    deliveryMethod: output.deliveryMethod,
  };
}

export const emptySolicitor: SolicitorValues = {
  name: '',
  postcode: '',
  address: '',
  house: '',
  street: '',
  city: '',
  contactNumber: '',
  email: '',
  fee: '',
  deliveryMethod: '',
};

export function solicitorValues(solicitor: Solicitor): SolicitorValues {
  return {
    name: solicitor.name,
    postcode: solicitor.address.postcode ?? '',
    address: solicitor.address.address ?? '',
    house: solicitor.address.house ?? '',
    street: solicitor.address.street ?? '',
    city: solicitor.address.city ?? '',
    contactNumber: solicitor.contactNumber,
    email: solicitor.email,
    fee: solicitor.fee.toFixed(2),
    deliveryMethod: solicitor.deliveryMethod,
  };
}

type SolicitorForm = ReturnType<typeof useForm<SolicitorField, typeof solicitorFormSchema>>;

const partLabels: Record<(typeof solicitorAddressParts)[number], string> = {
  postcode: 'Postcode',
  address: 'Address line',
  house: 'House',
  street: 'Street',
  city: 'City',
};
const partAutoComplete: Record<(typeof solicitorAddressParts)[number], string> = {
  postcode: 'postal-code',
  address: 'address-line1',
  house: 'off',
  street: 'address-line2',
  city: 'address-level2',
};

function AddressGroup({ form }: { form: SolicitorForm }) {
  const group = form.field('address');
  const hintId = 'solicitor-address-hint';
  const errorId = 'solicitor-address-error';
  const onBlur = (event: FocusEvent<HTMLFieldSetElement>) => {
    if (leftGroup(event)) group.onBlur();
  };
  return (
    <fieldset className={group.error ? 'field field--group field--invalid' : 'field field--group'} onBlur={onBlur}>
      <legend className="field__label">Address</legend>
      <FieldHint id={hintId} hint="At least one part of the address." />
      <div className="admin-address">
        {solicitorAddressParts.map((key) => {
          const binding = form.field(key);
          return (
            <TextField
              key={key}
              label={partLabels[key]}
              autoComplete={partAutoComplete[key]}
              name={binding.name}
              value={binding.value}
              onValueChange={binding.onValueChange}
              error={key === 'address' ? null : binding.error}
              invalid={key === 'address' ? Boolean(group.error) : binding.invalid}
              describedBy={group.error ? errorId : hintId}
            />
          );
        })}
      </div>
      <ErrorSlot id={errorId} error={group.error} />
    </fieldset>
  );
}

interface SolicitorFormProps {
  /** The values the form starts from (a solicitor being edited). */
  initial: SolicitorValues;
  /** On edit: the email cannot change (spec section 2). */
  emailReadOnly?: boolean;
  /** Where the typing is kept on the device (admin-kit/kept-forms.ts): one for a new solicitor, one per solicitor. */
  draftKey: string;
  /** Sends the form's body (an edit sends only what `changed` says changed: changedParts); the answer decides what happens next. */
  submit: (body: SolicitorCreateInput, changed: ChangedFields) => Promise<ApiAnswer<Solicitor>>;
  /** Saved: the page shows it (toast, redirect). */
  onSaved: () => Promise<void>;
  /** Where cancel goes. */
  cancelTo: string;
  /** The form's message (below its buttons), kept by the page so its other actions can use it. */
  message: string | null;
  setMessage: (message: string | null) => void;
  /** More actions beside Save (Delete on the edit page), and whether one is under way. */
  extraActions?: ReactNode;
  extraBusy?: boolean;
  /** Whether the caller may save (the record's abilities); without it the form only shows. */
  canSave?: boolean;
}

export function SolicitorForm({
  initial,
  emailReadOnly = false,
  draftKey,
  submit,
  onSaved,
  cancelTo,
  message,
  setMessage,
  extraActions,
  extraBusy = false,
  canSave = true,
}: SolicitorFormProps) {
  const form = useKeptRecordForm(solicitorFormSchema, initial, { draftKey });
  useFieldsFollow(form.setInitialValues, initial);

  const { onSubmit, busy } = useSaveForm(form, {
    fields: solicitorFields,
    call: (output, changed) => submit(solicitorBody(output), changed),
    setMessage,
    onSaved,
  });
  useLeaveConfirmation(form.dirty, busy || extraBusy, { keptOnDevice: form.keptOnDevice, onLeave: form.forget });

  return (
    <form className="form admin-form card" noValidate onSubmit={onSubmit}>
      <TextField label="Name" autoComplete="organization" {...form.field('name')} />
      <AddressGroup form={form} />
      <TextField
        label="Email"
        type="email"
        inputMode="email"
        spellCheck={false}
        autoComplete="off"
        readOnly={emailReadOnly}
        {...form.field('email')}
      />
      <TextField label="Contact number" type="tel" inputMode="tel" autoComplete="off" {...form.field('contactNumber')} />
      <MoneyField label="Fee" {...form.field('fee')} />
      <TextField
        label="Delivery method"
        autoComplete="off"
        hint="How the advice is given, e.g. Video call or In person."
        {...form.field('deliveryMethod')}
      />
      <div className="form__actions">
        {canSave ? (
          <Button type="submit" busy={busy} disabled={!form.dirty}>
            Save
          </Button>
        ) : null}
        {extraActions}
        <Link className="button button--link" to={cancelTo}>
          cancel
        </Link>
      </div>
      <FormMessage message={message} />
    </form>
  );
}
