import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import * as v from 'valibot';
import { parseRecordId } from '../../shared/rules/record-id';
import { lawyerCreateSchema } from '../../shared/schemas/administration';
import { api } from '../api/client';
import { useLeaveConfirmation } from '../routing/leave-confirmation';
import { TextField } from '../ui/field';
import { SelectField } from '../ui/choice-fields';
import { Button } from '../ui/button';
import { FormMessage } from '../ui/form-message';
import { useToast } from '../ui/toast-store';
import type { useForm } from '../ui/use-form';
import { useKeptRecordForm } from '../offline/kept-record-form';
import { keptFormKeys } from './kept-forms';
import { doneMessages } from './admin-messages';
import { useLoad } from './calls';
import { useSaveForm } from './save-form';
import './admin-kit.css';

/** The lawyer form: the shared schema, and the firm to add to when staff choose it. */
export const lawyerFields = ['firstName', 'surname', 'login', 'firmId'] as const;
export type LawyerField = (typeof lawyerFields)[number];
export type LawyerValues = Record<LawyerField, string>;

export const lawyerFormSchema = v.object({
  ...lawyerCreateSchema.entries,
  /** The chosen firm's id; given by the page when the firm is known. */
  firmId: v.pipe(
    v.string('required'),
    v.check((id) => parseRecordId(id) !== null, 'required'),
  ),
});

type LawyerForm = ReturnType<typeof useForm<LawyerField, typeof lawyerFormSchema>>;

export function LawyerFields({ form, loginReadOnly = false }: { form: LawyerForm; loginReadOnly?: boolean }) {
  return (
    <>
      <TextField label="First name" autoComplete="off" {...form.field('firstName')} />
      <TextField label="Surname" autoComplete="off" {...form.field('surname')} />
      <TextField
        label="Login"
        type="email"
        inputMode="email"
        spellCheck={false}
        autoComplete="off"
        hint={loginReadOnly ? undefined : "The lawyer's email: the invitation is sent there."}
        readOnly={loginReadOnly}
        {...form.field('login')}
      />
    </>
  );
}

/** The firms staff choose from (the contract's largest page; docs/decisions.md, 156). */
const FIRM_CHOICES = 100;

function FirmChoice({ form }: { form: LawyerForm }) {
  const firms = useLoad('firm choices', () => api.GET('/firms', { params: { query: { page: 1, pageSize: FIRM_CHOICES } } }));
  const options =
    firms.state.status === 'ready' ? firms.state.data.items.map((firm) => ({ value: firm.id, label: firm.firmName })) : [];
  const field = form.field('firmId');
  return (
    <SelectField
      label="Law firm"
      options={options}
      placeholder={firms.state.status === 'loading' ? 'Loading…' : 'Select'}
      value={field.value}
      onValueChange={field.onValueChange}
      onBlur={field.onBlur}
      error={field.error ?? (firms.state.status === 'failed' ? firms.state.message : null)}
    />
  );
}

interface AddLawyerFormProps {
  /** The firm the lawyer joins; null: staff choose it. */
  firmId: number | null;
  /** Where the lawyer is shown once added, and where cancel goes. */
  done: string;
}

/** Adds a lawyer (invited by email at the login), then goes to `done` with a toast. */
export function AddLawyerForm({ firmId, done }: AddLawyerFormProps) {
  const navigate = useNavigate();
  const toast = useToast();
  const form = useKeptRecordForm(
    lawyerFormSchema,
    { firstName: '', surname: '', login: '', firmId: firmId ? String(firmId) : '' },
    { draftKey: keptFormKeys.addLawyer(firmId) },
  );
  const [message, setMessage] = useState<string | null>(null);

  const { onSubmit, busy } = useSaveForm(form, {
    fields: lawyerFields,
    call: (output) => api.POST('/lawyers', { body: { ...output, firmId: Number(output.firmId) } }),
    setMessage,
    onSaved: async () => {
      toast.notify(doneMessages.lawyerAdded);
      await navigate(done);
    },
  });
  useLeaveConfirmation(form.dirty, busy, { keptOnDevice: form.keptOnDevice, onLeave: form.forget });

  return (
    <form className="form admin-form card" noValidate onSubmit={onSubmit}>
      {firmId === null ? <FirmChoice form={form} /> : null}
      <LawyerFields form={form} />
      <div className="form__actions">
        <Button type="submit" busy={busy} disabled={!form.dirty}>
          Save
        </Button>
        <Link className="button button--secondary" to={done}>
          cancel
        </Link>
      </div>
      <FormMessage message={message} />
    </form>
  );
}
