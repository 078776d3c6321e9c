/** The month names, January first: the date pickers, the journey's month list, the summary and the PDF. */
export const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** The name of month 1 to 12, or '' for anything else. */
export function monthName(month: number): string {
  return monthNames[month - 1] ?? '';
}
