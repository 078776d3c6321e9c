import type { Audience } from './required';
import type { JourneyStep } from './steps';

/**
 * Each party attests only for itself (spec section 7: "The lawyer must also confirm consent and
 * authority to submit for the client"; the client confirmation is the client's own step). Every
 * other answer of the journey may be given by either party.
 */
const stepOwners: Partial<Record<JourneyStep, Audience>> = { client: 'customer' };
const fieldOwners: Partial<Record<JourneyStep, Readonly<Record<string, Audience>>>> = {
  independent: { consent: 'lawyer', authorised: 'lawyer' },
};

/** Whether this party may save the step at all (the client confirmation is only the client's). */
export function mayAnswerStep(step: JourneyStep, audience: Audience): boolean {
  const owner = stepOwners[step];
  return owner === undefined || owner === audience;
}

/** The fields of a step that only the other party answers. */
function fieldsOfOtherParty(step: JourneyStep, audience: Audience): string[] {
  return Object.entries(fieldOwners[step] ?? {})
    .filter(([, owner]) => owner !== audience)
    .map(([field]) => field);
}

/** Whether this party may fill the field in its own form (a form hides the other party's fields). */
export function answersField(step: JourneyStep, field: string, audience: Audience): boolean {
  return !fieldsOfOtherParty(step, audience).includes(field);
}

type Data = Record<string, unknown>;

/** A party's save as its form sends it: without the answers only the other party gives. */
export function withoutOtherPartyAnswers(step: JourneyStep, audience: Audience, saved: unknown): unknown {
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return saved;
  const own: Data = { ...(saved as Data) };
  for (const field of fieldsOfOtherParty(step, audience)) delete own[field];
  return own;
}

/**
 * A save by one party, with the other party's answers carried over from the stored copy: the saver
 * may leave them out (its form does not show them) or send them unchanged, never change them.
 * `refused` names the fields it tried to change.
 */
export function withOtherPartyAnswers(
  step: JourneyStep,
  audience: Audience,
  saved: Data,
  stored: Data | undefined,
): { data: Data; refused: string[] } {
  const data = { ...saved };
  const refused: string[] = [];
  for (const field of fieldsOfOtherParty(step, audience)) {
    const before = stored?.[field];
    if (changes(saved[field], before)) refused.push(field);
    if (before === undefined) delete data[field];
    else data[field] = before;
  }
  return { data, refused };
}

/** An unticked box is the same answer as none; anything else must match what is stored. */
function changes(sent: unknown, stored: unknown): boolean {
  if (sent === undefined || sent === stored) return false;
  return !(sent === false && stored === undefined);
}
