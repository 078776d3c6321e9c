import { eq } from 'drizzle-orm';
import type { Config, ProviderDetails } from '../../config';
import type { Database } from '../../db/connection';
import { applicationSteps, solicitors } from '../../db/schema';
import { loadApplicationParties } from '../application-parties';
import { addressText } from '../../../shared/journey/display';
import { INDEPENDENT_ADVICE_FEE_PENCE, VAT_RATE_PERCENT } from '../../../shared/rules/document-types';
import { formatApplicationId, formatDate } from '../../../shared/rules/formats';

/**
 * Everything the contract documents print, read from the database first: plain data a worker thread
 * can be given (docs/decisions.md: 280). Money in integer pence, dates already DD/MM/YYYY.
 */
export interface ContractData {
  applicationId: number;
  applicationRef: string;
  caseRef: string;
  /** The day the set was made (DD/MM/YYYY). */
  date: string;
  productName: string;
  provider: ProviderDetails;
  client: { title: string; firstName: string; lastName: string; address: string; email: string; phone: string };
  lawyer: { name: string; email: string; firm: string };
  /** The independent solicitor named in the journey, or the client's own solicitor (no record). */
  solicitor: { name: string; address: string; email: string; phone: string } | { own: true };
  loanAmountPence: number;
  adviceFee: { netPence: number; vatPence: number; grossPence: number; vatRatePercent: number };
  /**
   * A variation of a signed loan's Credit Agreement (docs/decisions.md, 507): the set is then the one
   * agreement, for `loanAmountPence`, naming the loan and the facility it replaces.
   */
  variation?: { loanReference: string; previousAmountPence: number };
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * The contract data of an application, or undefined when it does not exist. `loanAmountPence` null
 * (no loan amount set yet) is the caller's refusal to make, not this loader's.
 */
export async function loadContractData(
  db: Database,
  config: Pick<Config, 'provider' | 'brand'>,
  applicationId: number,
  now: Date = new Date(),
): Promise<(Omit<ContractData, 'loanAmountPence'> & { loanAmountPence: number | null }) | undefined> {
  const parties = await loadApplicationParties(db, applicationId);
  if (!parties) return undefined;
  const { row, lawyerUser } = parties;
  const steps = await db.select().from(applicationSteps).where(eq(applicationSteps.applicationId, applicationId));
  const step = (name: string): Record<string, unknown> => steps.find((s) => s.step === name)?.data ?? {};
  const personal = step('personal');
  const independent = step('independent');
  const history = Array.isArray(personal.addressHistory) ? (personal.addressHistory as Record<string, unknown>[]) : [];
  const current = history[0];

  let solicitor: ContractData['solicitor'] = { own: true };
  if (typeof independent.solicitorId === 'number') {
    const [found] = await db.select().from(solicitors).where(eq(solicitors.id, independent.solicitorId));
    if (found)
      solicitor = {
        name: found.name,
        address: addressText(found.address),
        email: found.email,
        phone: found.contactNumber,
      };
  }
  const vatPence = Math.round((INDEPENDENT_ADVICE_FEE_PENCE * VAT_RATE_PERCENT) / 100);
  return {
    applicationId,
    applicationRef: formatApplicationId(applicationId),
    caseRef: row.application.caseRef ?? text(step('case').caseRef),
    date: formatDate(now),
    productName: config.brand.productName,
    provider: config.provider,
    client: {
      title: text(personal.title),
      firstName: text(personal.firstName) || row.clientFirstName,
      lastName: text(personal.lastName) || row.clientLastName,
      address: current ? addressText(current) : '',
      email: row.clientEmail,
      phone: text(personal.contactNumber) || (row.clientPhone ?? ''),
    },
    lawyer: {
      name: [lawyerUser?.firstName, lawyerUser?.surname].filter(Boolean).join(' '),
      email: lawyerUser?.email ?? '',
      firm: row.firm,
    },
    solicitor,
    loanAmountPence: row.application.loanAmountPence,
    adviceFee: {
      netPence: INDEPENDENT_ADVICE_FEE_PENCE,
      vatPence,
      grossPence: INDEPENDENT_ADVICE_FEE_PENCE + vatPence,
      vatRatePercent: VAT_RATE_PERCENT,
    },
  };
}
