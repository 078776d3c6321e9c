import type { JourneyData } from '../../../shared/journey/steps';

type Personal = JourneyData['personal'];

export const normalizeEmail = (email: string | undefined) => (email ?? '').trim().toLowerCase();

/** The ISO date of the journey's three birth-date numbers, or null when they make no date. */
function birthDate(p: Personal): string | null {
  const { birthYear: y, birthMonth: m, birthDayDay: d } = p;
  if (!y || !m || !d) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** The client's record follows the personal step: names, contact number and date of birth. */
export function clientFields(p: Personal) {
  return {
    firstName: (p.firstName ?? '').trim(),
    lastName: (p.lastName ?? '').trim(),
    contactNumber: p.contactNumber?.trim() || null,
    birthDate: birthDate(p),
  };
}
