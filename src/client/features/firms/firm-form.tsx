import { firmCreateSchema } from '../../../shared/schemas/administration';
import { TextField } from '../../ui/field';
import type { useForm } from '../../ui/use-form';

/** The firm form's fields: the firm's name and its admin (who is invited at the login email). */
export const firmFields = ['firmName', 'firstName', 'surname', 'login'] as const;
export type FirmField = (typeof firmFields)[number];
export type FirmValues = Record<FirmField, string>;
export const emptyFirm: FirmValues = { firmName: '', firstName: '', surname: '', login: '' };

/** The shared schema checks the form (and the server checks it again). */
export const firmFormSchema = firmCreateSchema;

type FirmForm = ReturnType<typeof useForm<FirmField, typeof firmFormSchema>>;

interface FirmFieldsProps {
  form: FirmForm;
  /** On the firm page: the login cannot change (spec section 3). */
  loginReadOnly?: boolean;
  /** The details are shown but not being edited. */
  disabled?: boolean;
}

export function FirmFields({ form, loginReadOnly = false, disabled = false }: FirmFieldsProps) {
  return (
    <>
      <TextField label="Firm name" autoComplete="organization" disabled={disabled} {...form.field('firmName')} />
      <TextField label="First name" autoComplete="off" disabled={disabled} {...form.field('firstName')} />
      <TextField label="Surname" autoComplete="off" disabled={disabled} {...form.field('surname')} />
      <TextField
        label="Login"
        type="email"
        inputMode="email"
        spellCheck={false}
        autoComplete="off"
        hint={loginReadOnly ? undefined : "The firm admin's email: the invitation is sent there."}
        readOnly={loginReadOnly}
        disabled={disabled}
        {...form.field('login')}
      />
    </>
  );
}
