import { paths } from '../routing/paths';
import { fullName, type AdminRow } from './admin-list';
import type { Lawyer } from './calls';

/** A lawyer in a list: their firm (on /lawyers) or their login (on their firm's page). */
export function lawyerRow(lawyer: Lawyer, withFirm = false): AdminRow {
  return {
    id: lawyer.id,
    href: paths.lawyer.url({ id: lawyer.id }),
    title: fullName(lawyer.firstName, lawyer.surname),
    detail: withFirm ? lawyer.firm.firmName : lawyer.login,
    activeCases: lawyer.casesAmount,
  };
}
