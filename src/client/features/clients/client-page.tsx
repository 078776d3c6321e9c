import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { birthYears, days, months, splitDateOptions } from '../../../shared/journey/options';
import { api } from '../../api/client';
import { paths } from '../../routing/paths';
import { useLeaveConfirmation } from '../../routing/leave-confirmation';
import { TextField } from '../../ui/field';
import { SelectField } from '../../ui/choice-fields';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useToast } from '../../ui/toast-store';
import { useKeptRecordForm } from '../../offline/kept-record-form';
import { keptFormKeys } from '../../admin-kit/kept-forms';
import { clientCaseText } from './client-case';
import { confirmMessages, doneMessages } from '../../admin-kit/admin-messages';
import type { Client } from '../../admin-kit/calls';
import { useConfirmedAction } from '../../admin-kit/confirmed-action';
import { RecordPage, useRecord } from '../../admin-kit/record-page';
import { changedParts, useSaveForm } from '../../admin-kit/save-form';
import { useFieldsFollow } from '../../admin-kit/follow-record';
import { clientFields, clientFormSchema, clientValues, isoOf } from './client-form';

/**
 * /clients/:id (crudClients): the email (disabled), names, phone and date of birth, Save (back to
 * /clients), and 'Reset password', which asks first and sends the client the reset email.
 */
export default function ClientPage() {
  const { key, state, read } = useRecord('client', (id) => api.GET('/clients/{id}', { params: { path: { id } } }));
  return (
    <RecordPage title="Edit client" state={state} read={read}>
      {(client) => <ClientEditor key={key} client={client} />}
    </RecordPage>
  );
}

function ClientEditor({ client }: { client: Client }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [message, setMessage] = useState<string | null>(null);
  const initial = useMemo(() => clientValues(client), [client]);
  const form = useKeptRecordForm(clientFormSchema, initial, { draftKey: keptFormKeys.client(client.id) });
  useFieldsFollow(form.setInitialValues, initial);
  // The year list (88 years, ending 12 years ago) also offers a stored year outside it.
  const years = useMemo(() => {
    const list = birthYears(new Date());
    const stored = Number(initial.birthYear);
    return stored && !list.some((option) => option.value === stored)
      ? [...list, { value: stored, label: String(stored) }].sort((a, b) => b.value - a.value)
      : list;
  }, [initial.birthYear]);

  const save = useSaveForm(form, {
    fields: clientFields,
    renames: { birthDay: 'birthDayDay' },
    call: (output, changed) =>
      api.POST('/clients/update', {
        body: changedParts(
          {
            applicationId: client.applicationId,
            firstName: output.firstName,
            lastName: output.lastName,
            contactNumber: output.contactNumber,
            birthDay: isoOf(output.birthDayDay, output.birthMonth, output.birthYear),
          },
          changed,
          { keep: ['applicationId'], fieldsOf: { birthDay: ['birthDayDay', 'birthMonth', 'birthYear'] } },
        ),
      }),
    setMessage,
    onSaved: async () => {
      toast.notify(doneMessages.clientSaved);
      await navigate(paths.clients.url());
    },
  });

  const reset = useConfirmedAction({
    question: confirmMessages.resetPassword,
    call: () => api.POST('/clients/reset-password', { body: { email: client.email } }),
    setMessage,
    onDone: () => toast.notify(doneMessages.resetSent),
  });

  useLeaveConfirmation(form.dirty, save.busy, { keptOnDevice: form.keptOnDevice, onLeave: form.forget });

  const part = (name: 'birthDayDay' | 'birthMonth' | 'birthYear') => {
    const binding = form.field(name);
    return { value: binding.value, onValueChange: binding.onValueChange, onBlur: binding.onBlur, error: binding.error };
  };

  // A day the chosen month does not have is offered disabled (decision 437).
  const birth = splitDateOptions(
    { day: form.values.birthDayDay, month: form.values.birthMonth, year: form.values.birthYear },
    { days, months, years },
  );

  return (
    <form className="form admin-form card" noValidate onSubmit={save.onSubmit}>
      <p className="admin-facts">{clientCaseText(client)}</p>
      <TextField label="Email" type="email" value={client.email} onValueChange={() => undefined} disabled />
      <TextField label="First name" autoComplete="off" {...form.field('firstName')} />
      <TextField label="Last name" autoComplete="off" {...form.field('lastName')} />
      <fieldset className="field field--group field--parts">
        <legend className="field__label">Date of birth</legend>
        <div className="field__parts">
          <SelectField className="field__part" label="Day" options={birth.days} placeholder="Day" {...part('birthDayDay')} />
          <SelectField className="field__part" label="Month" options={birth.months} placeholder="Month" {...part('birthMonth')} />
          <SelectField className="field__part" label="Year" options={birth.years} placeholder="Year" {...part('birthYear')} />
        </div>
      </fieldset>
      <TextField label="Phone number" type="tel" inputMode="tel" autoComplete="off" {...form.field('contactNumber')} />
      <div className="form__actions">
        {client.abilities.edit ? (
          <Button type="submit" busy={save.busy} disabled={!form.dirty}>
            Save
          </Button>
        ) : null}
        {client.abilities.resetPassword ? (
          <Button variant="secondary" busy={reset.busy} onClick={() => void reset.run()}>
            Reset password
          </Button>
        ) : null}
        <Link className="button button--link" to={paths.clients.url()}>
          cancel
        </Link>
      </div>
      <FormMessage message={message} />
    </form>
  );
}
