import { dateGroup, dateGroups, type DateGroup } from '../../shared/rules/formats';

/**
 * A list's rows under the spec's headings (Today, Last 7 days, Earlier), in the order they came
 * (the server sends newest first). Groups without rows are left out.
 */
export function groupByDate<T>(rows: readonly T[], dateOf: (row: T) => string, now: Date = new Date()): [DateGroup, T[]][] {
  const groups = new Map<DateGroup, T[]>();
  for (const row of rows) {
    const group = dateGroup(dateOf(row), now);
    groups.set(group, [...(groups.get(group) ?? []), row]);
  }
  return dateGroups.flatMap((group) => {
    const items = groups.get(group);
    return items ? [[group, items] as [DateGroup, T[]]] : [];
  });
}
