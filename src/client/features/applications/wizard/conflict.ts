/**
 * A step changed by someone else meanwhile (409): the user chooses, field by field, between their
 * version and the saved one. Fields are the step's top-level fields (a list such as the address
 * history is one field: mixing entries of two lists would make an address history nobody wrote).
 */
export type Side = 'mine' | 'theirs';

type Data = Record<string, unknown>;

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The fields whose values differ, in a stable order (mine first, then fields only the server has). */
export function differingFields(mine: Data, theirs: Data): string[] {
  const keys = [...Object.keys(mine), ...Object.keys(theirs).filter((key) => !(key in mine))];
  return keys.filter((key) => !same(mine[key], theirs[key]));
}

/** The step's data from the choices: unchosen or equal fields keep the server's value. */
export function mergeChoices(mine: Data, theirs: Data, choices: Readonly<Record<string, Side>>): Data {
  const merged: Data = { ...theirs };
  for (const key of differingFields(mine, theirs)) {
    if (choices[key] !== 'mine') continue;
    if (mine[key] === undefined) delete merged[key];
    else merged[key] = mine[key];
  }
  return merged;
}
