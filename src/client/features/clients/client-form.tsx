import * as v from 'valibot';
import { clientUpdateSchema } from '../../../shared/schemas/administration';
import type { Client } from '../../admin-kit/calls';

/**
 * The client form: names and phone under the shared rules, the date of birth as three selects (the
 * spec's split date: day, month, year, each required), checked as a real date by the shared rule.
 */
export const clientFields = ['firstName', 'lastName', 'contactNumber', 'birthDayDay', 'birthMonth', 'birthYear'] as const;
export type ClientField = (typeof clientFields)[number];
export type ClientValues = Record<ClientField, string>;

const { firstName, lastName, contactNumber, birthDay } = clientUpdateSchema.entries;
const datePart = v.pipe(v.string('required'), v.nonEmpty('required'));

/** 'YYYY-MM-DD' of the three parts. */
export function isoOf(day: string, month: string, year: string): string {
  return `${year.padStart(4, '0')}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

export const clientFormSchema = v.pipe(
  v.object({
    firstName: firstName.wrapped,
    lastName: lastName.wrapped,
    contactNumber: contactNumber.wrapped,
    birthDayDay: datePart,
    birthMonth: datePart,
    birthYear: datePart,
  }),
  // 31 February and the like: the message sits under the day.
  v.forward(
    v.partialCheck(
      [['birthDayDay'], ['birthMonth'], ['birthYear']],
      (input) => v.is(birthDay, isoOf(input.birthDayDay, input.birthMonth, input.birthYear)),
      'date',
    ),
    ['birthDayDay'],
  ),
);

export function clientValues(client: Client): ClientValues {
  const [year = '', month = '', day = ''] = client.birthDay ? client.birthDay.split('-') : [];
  return {
    firstName: client.firstName,
    lastName: client.lastName,
    contactNumber: client.contactNumber ?? '',
    birthDayDay: day ? String(Number(day)) : '',
    birthMonth: month ? String(Number(month)) : '',
    birthYear: year,
  };
}
