/** Placeholder until the shared money rules land (replaced on merge). */
const pence = (pounds: number) => Math.round(pounds * 100);
export function drawdownsPending(amount: number, paid: number): number {
  return (pence(amount) - pence(paid)) / 100;
}
export function creditLeft(offered: number, drawn: number): number {
  return (pence(offered) - pence(drawn)) / 100;
}
