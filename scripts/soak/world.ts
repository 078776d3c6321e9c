/**
 * The rows the soak works on, written straight into its database with the API tests' factories
 * (never through the services), so the run starts from a known world: staff, and per firm a lawyer
 * with a client whose loans are open, a draft application to save steps on and upload to, and a case
 * accepted by the provider, ready for the e-signature.
 */
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../../src/server/db/connection';
import {
  buildApplication,
  buildClient,
  buildFirmAdmin,
  buildLawyer,
  buildLoan,
  buildSolicitor,
  buildUser,
  FACTORY_PASSWORD,
} from '../../tests/api/factories';
import { validPersonal, validSteps } from '../../tests/fixtures/journeys';

export { FACTORY_PASSWORD };

/** One firm's part of the world. */
export interface Firm {
  lawyerEmail: string;
  clientEmail: string;
  firmAdminEmail: string;
  /** The open loans drawdowns are requested against, with their credit in pence. */
  loans: { id: number; applicationId: number; creditPence: number }[];
  /** An application still being filled: steps saved, documents uploaded. */
  draftApplicationId: number;
  /** An application the provider accepted, with independent advice ticked: staff prepare it, the client signs it. */
  signingApplicationId: number;
  signingClientEmail: string;
}

export interface World {
  staffEmail: string;
  firms: Firm[];
}

/**
 * Builds `firmCount` firms' worth of rows, each lawyer with `loansPerFirm` loans (a loan takes ten
 * drawdown requests a day: docs/decisions.md 551); the credit is small enough that the run reaches it.
 */
export async function buildWorld(
  databaseUrl: string,
  options: { firms: number; loansPerFirm: number; creditPounds: number },
): Promise<World> {
  const handle = await openDatabase({ databaseUrl, dataDir: 'memory://' });
  try {
    const db = handle.db;
    const staff = await buildUser(db, { role: 'admin' });
    const firms: Firm[] = [];
    for (let i = 0; i < options.firms; i++) {
      const lawyer = await buildLawyer(db);
      const firmAdmin = await buildFirmAdmin(db, { firmId: lawyer.firmId });
      const client = await buildClient(db);
      const loans: Firm['loans'] = [];
      for (let j = 0; j < options.loansPerFirm; j++) {
        const funded = await buildApplication(db, {
          lawyerId: lawyer.id,
          clientId: client.id,
          status: 'approved',
          steps: { case: { ...validSteps.case, caseRef: `SOAK-${i + 1}-${j + 1}` } },
        });
        const loan = await buildLoan(db, { applicationId: funded.id, creditOffered: options.creditPounds });
        loans.push({ id: loan.id, applicationId: funded.id, creditPence: loan.amountPence });
      }
      const draft = await buildApplication(db, { lawyerId: lawyer.id, clientId: client.id, status: 'incomplete' });
      const signer = await buildClient(db, { firstName: 'Nina', surname: 'Fairweather' });
      const solicitor = await buildSolicitor(db);
      const signing = await buildApplication(db, {
        lawyerId: lawyer.id,
        clientId: signer.id,
        status: 'providerAccepted',
        loanAmount: 40_000,
        steps: {
          personal: validPersonal(signer.email),
          case: { ...validSteps.case, caseRef: `SOAK-SIGN-${i + 1}` },
          independent: { useOwnSolicitor: false, solicitorId: solicitor.id, consent: true, authorised: true },
        },
      });
      await queryRows(db, sql`update applications set independent_advice = true where id = ${signing.id}`);
      firms.push({
        lawyerEmail: lawyer.email,
        clientEmail: client.email,
        firmAdminEmail: firmAdmin.email,
        loans,
        draftApplicationId: draft.id,
        signingApplicationId: signing.id,
        signingClientEmail: signer.email,
      });
    }
    return { staffEmail: staff.email, firms };
  } finally {
    await handle.close();
  }
}
