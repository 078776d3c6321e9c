/** Digits of the loan reference (spec: LFAMA and the number padded to 5 digits). */
const LOAN_REFERENCE_DIGITS = 5;

export function loanReference(id: number): string {
  return `LFAMA${String(id).padStart(LOAN_REFERENCE_DIGITS, '0')}`;
}

/** A search for 'LFAMA00012' (any case, any padding) is a search for loan 12. */
export function loanIdOfReference(text: string): number | undefined {
  const match = /^lfama0*(\d{1,9})$/i.exec(text.trim());
  return match ? Number(match[1]) : undefined;
}
