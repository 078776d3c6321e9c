/** Placeholder until the shared money rules land (replaced on merge). */
const pence = (pounds: number) => Math.round(pounds * 100);
export function creditLeft(offered: number, drawn: number): number {
  return (pence(offered) - pence(drawn)) / 100;
}
export function loanReference(id: number): string {
  return `LFAMA${String(id).padStart(5, '0')}`;
}
export function isBelowDrawn(amount: number, drawn: number): boolean {
  return pence(amount) < pence(drawn);
}
