/**
 * The loans world the loans and drawdowns tests share, built from factories: two firms, each with
 * a firm admin, a lawyer, a client and the client's signed case with an open loan; staff (root and
 * admin). Every account is signed in.
 */
import { ukDateFromToday } from '../../src/shared/rules/calendar-dates';
import type { TestServer } from './harness';
import {
  allTrueLawyerDeclarations,
  buildApplication,
  buildClient,
  buildFirmAdmin,
  buildLawyer,
  buildLoan,
  buildUser,
  signInAs,
} from './factories';

export type Party = 'lawyer' | 'customer' | 'firm';

export interface Side {
  lawyer: Awaited<ReturnType<typeof buildLawyer>>;
  client: Awaited<ReturnType<typeof buildClient>>;
  firmAdmin: Awaited<ReturnType<typeof buildFirmAdmin>>;
  applicationId: number;
  loanId: number;
  tokens: Record<Party, string>;
}

export interface LoansWorld {
  ours: Side;
  theirs: Side;
  staff: { root: string; admin: string };
}

/** One firm's side: its lawyer's client with a signed case and a loan of `creditOffered` pounds. */
export async function buildSide(server: TestServer, creditOffered = 50_000, caseRef?: string): Promise<Side> {
  const { db } = server;
  const lawyer = await buildLawyer(db);
  const firmAdmin = await buildFirmAdmin(db, { firmId: lawyer.firmId });
  const client = await buildClient(db);
  const application = await buildApplication(db, {
    lawyerId: lawyer.id,
    clientId: client.id,
    status: 'approved',
    ...(caseRef ? { steps: { case: { caseRef } } } : {}),
  });
  const loan = await buildLoan(db, { applicationId: application.id, creditOffered });
  return {
    lawyer,
    client,
    firmAdmin,
    applicationId: application.id,
    loanId: loan.id,
    tokens: {
      lawyer: await signInAs(server, lawyer),
      customer: await signInAs(server, client),
      firm: await signInAs(server, firmAdmin),
    },
  };
}

export async function buildLoansWorld(server: TestServer): Promise<LoansWorld> {
  const root = await buildUser(server.db, { role: 'root' });
  const admin = await buildUser(server.db, { role: 'admin' });
  return {
    ours: await buildSide(server, 50_000, 'FAM-OURS-1'),
    theirs: await buildSide(server, 20_000, 'FAM-THEIRS-1'),
    staff: { root: await signInAs(server, root), admin: await signInAs(server, admin) },
  };
}

/** A complete drawdown request for the application, every statement True; `overrides` change any field. */
export function drawdownRequest(applicationId: number, overrides: Record<string, unknown> = {}) {
  return {
    applicationId,
    amount: 1_000,
    invoiceNumber: 'INV-2041',
    stageOfCase: 'First appointment',
    materialChanges: false,
    // Dates still to come, whenever the tests run (decision 462: none may be past).
    nextHearingDate: ukDateFromToday(50),
    finalOrderDate: ukDateFromToday(200),
    reaplyAssets: 'Share of the sale proceeds of the former matrimonial home',
    expectedRepaymentDate: ukDateFromToday(400),
    lawyerDeclarations: allTrueLawyerDeclarations(),
    ...overrides,
  };
}

/** The client's five declarations, all True unless overridden. */
export function clientDeclarations(overrides: Record<string, boolean> = {}) {
  return {
    satisfiedWithService: true,
    satisfiedWithSolicitorFee: true,
    approvalToPayAmount: true,
    compliedWithTNC: true,
    confirmLoanBalance: true,
    ...overrides,
  };
}
