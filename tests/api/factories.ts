/**
 * Rows an API test builds for itself, written through the database schema (never through the
 * services), so a test states what it needs instead of leaning on the demo seed. Every builder
 * gives unique defaults that a test may override; every built account is active and signs in
 * with FACTORY_PASSWORD (signInAs).
 */
import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../src/server/auth/passwords';
import type { Database } from '../../src/server/db/connection';
import {
  applicationSteps,
  applications,
  clients,
  drawdowns,
  firms,
  lawyers,
  loans,
  postcodeAddresses,
  solicitors,
  users,
} from '../../src/server/db/schema';
import { normalizePostcode } from '../../src/shared/journey/address';
import { lawyerDeclarationKeys, type LawyerDeclarationKey } from '../../src/shared/rules/declarations';
import type { ApplicationStatus, DrawdownStatus } from '../../src/shared/rules/statuses';
import type { TestServer } from './harness';

export const FACTORY_PASSWORD = 'Factory-pass-1';

type Role = 'root' | 'admin' | 'firm' | 'lawyer' | 'customer';
type LoanStatus = 'open' | 'blocked' | 'paid' | 'closed';

/** What every built account carries: enough to sign in and to find it again. */
export interface BuiltUser {
  userId: number;
  email: string;
  firstName: string;
  surname: string;
  role: Role;
}

let sequence = 0;
/** A short tag no other built row has, in this process or another one on the same database. */
function unique(): string {
  sequence += 1;
  return `${sequence}${randomUUID().slice(0, 6)}`;
}

let passwordHash: Promise<string> | undefined;
/** argon2 is slow on purpose: one hash serves every built account. */
function factoryPasswordHash(): Promise<string> {
  passwordHash ??= hashPassword(FACTORY_PASSWORD);
  return passwordHash;
}

export async function buildFirm(db: Database, values: Partial<typeof firms.$inferInsert> = {}) {
  const [firm] = await db
    .insert(firms)
    .values({ name: `Firm ${unique()} LLP`, ...values })
    .returning();
  return firm!;
}

/** An active account of any role (staff, a firm admin needs firmId). */
export async function buildUser(db: Database, values: Partial<typeof users.$inferInsert> & { role: Role }): Promise<BuiltUser> {
  const tag = unique();
  const [user] = await db
    .insert(users)
    .values({
      email: `${values.role}.${tag}@factory.test`,
      firstName: 'Test',
      surname: `${values.role[0]!.toUpperCase()}${values.role.slice(1)} ${tag}`,
      passwordHash: await factoryPasswordHash(),
      status: 'active',
      ...values,
    })
    .returning();
  return { userId: user!.id, email: user!.email, firstName: user!.firstName, surname: user!.surname, role: values.role };
}

/** A firm admin of the given firm (a new firm when none is given). */
export async function buildFirmAdmin(db: Database, values: Partial<typeof users.$inferInsert> = {}) {
  const firmId = values.firmId ?? (await buildFirm(db)).id;
  return { ...(await buildUser(db, { ...values, role: 'firm', firmId })), firmId };
}

/** A lawyer of the given firm (a new firm when none is given); `id` is the lawyer's id. */
export async function buildLawyer(db: Database, values: Partial<typeof users.$inferInsert> = {}) {
  const firmId = values.firmId ?? (await buildFirm(db)).id;
  const user = await buildUser(db, { firstName: 'Lena', ...values, role: 'lawyer', firmId });
  const [lawyer] = await db.insert(lawyers).values({ userId: user.userId, firmId }).returning();
  return { ...user, id: lawyer!.id, firmId };
}

/** A client with an active account; `id` is the client's id. */
export async function buildClient(
  db: Database,
  values: Partial<typeof users.$inferInsert> & { birthDate?: string | null; contactNumber?: string | null } = {},
) {
  const { birthDate = null, contactNumber = null, ...userValues } = values;
  const user = await buildUser(db, { firstName: 'Cara', ...userValues, role: 'customer' });
  const [client] = await db
    .insert(clients)
    .values({ userId: user.userId, firstName: user.firstName, lastName: user.surname, birthDate, contactNumber })
    .returning();
  return { ...user, id: client!.id };
}

/**
 * An application of the given lawyer, for the given client (a new one when none is given), in any
 * status, with the journey steps given (each stored at version 1, as the lawyer's save).
 */
export async function buildApplication(
  db: Database,
  options: {
    lawyerId: number;
    clientId?: number;
    status?: ApplicationStatus;
    steps?: Record<string, Record<string, unknown>>;
    loanAmount?: number | null;
    startedAt?: Date;
    updatedBy?: number;
  },
) {
  const clientId = options.clientId ?? (await buildClient(db)).id;
  const steps = options.steps ?? {};
  const caseRef = typeof steps.case?.caseRef === 'string' ? steps.case.caseRef : null;
  const [application] = await db
    .insert(applications)
    .values({
      lawyerId: options.lawyerId,
      clientId,
      status: options.status ?? 'incomplete',
      caseRef,
      loanAmountPence: options.loanAmount == null ? null : Math.round(options.loanAmount * 100),
      ...(options.startedAt ? { startedAt: options.startedAt } : {}),
    })
    .returning();
  const rows = Object.entries(steps).map(([step, data]) => ({
    applicationId: application!.id,
    step,
    data,
    updatedBy: options.updatedBy ?? null,
  }));
  if (rows.length > 0) await db.insert(applicationSteps).values(rows);
  return application!;
}

/** The loan of an application; `creditOffered` in pounds, as the wire shows it. */
export async function buildLoan(db: Database, options: { applicationId: number; creditOffered?: number; status?: LoanStatus }) {
  const [loan] = await db
    .insert(loans)
    .values({
      applicationId: options.applicationId,
      amountPence: Math.round((options.creditOffered ?? 50_000) * 100),
      status: options.status ?? 'open',
    })
    .returning();
  return loan!;
}

/** The lawyer's seven statements, every one answered True. */
export function allTrueLawyerDeclarations(): Record<LawyerDeclarationKey, boolean> {
  return Object.fromEntries(lawyerDeclarationKeys.map((key) => [key, true])) as Record<LawyerDeclarationKey, boolean>;
}

/** A drawdown of a loan; `amount` in pounds. The client's declarations are there once the client approved. */
export async function buildDrawdown(
  db: Database,
  options: { loanId: number; amount?: number; status?: DrawdownStatus; requestedBy?: number },
) {
  const status = options.status ?? 'requested';
  const approvedByClient = status === 'customerApproved' || status === 'paid';
  const [drawdown] = await db
    .insert(drawdowns)
    .values({
      loanId: options.loanId,
      status,
      amountPence: Math.round((options.amount ?? 1_000) * 100),
      invoiceNumber: `INV-${unique()}`,
      stageOfCase: 'First appointment',
      materialChanges: false,
      nextHearingDate: '2030-01-15',
      finalOrderDate: '2030-06-30',
      reaplyAssets: 'Share of the sale proceeds of the former matrimonial home',
      expectedRepaymentDate: '2030-12-31',
      lawyerDeclarations: allTrueLawyerDeclarations(),
      clientDeclarations: approvedByClient
        ? {
            satisfiedWithService: true,
            satisfiedWithSolicitorFee: true,
            approvalToPayAmount: true,
            compliedWithTNC: true,
            confirmLoanBalance: true,
          }
        : null,
      requestedBy: options.requestedBy ?? null,
    })
    .returning();
  return drawdown!;
}

export async function buildSolicitor(db: Database, values: Partial<typeof solicitors.$inferInsert> = {}) {
  const tag = unique();
  const [solicitor] = await db
    .insert(solicitors)
    .values({
      name: `Solicitor ${tag}`,
      address: { postcode: 'LS1 4DY', address: '5 Park Row, Leeds', house: '5', street: 'Park Row', city: 'Leeds' },
      contactNumber: '0113 496 0000',
      email: `solicitor.${tag}@factory.test`,
      feePence: 25_000,
      deliveryMethod: 'email',
      ...values,
    })
    .returning();
  return solicitor!;
}

/** A bearer token for a built account, by the real sign-in call. */
export function signInAs(server: Pick<TestServer, 'signIn'>, user: Pick<BuiltUser, 'email'>): Promise<string> {
  return server.signIn(user.email, FACTORY_PASSWORD);
}

/**
 * Addresses the built-in postcode provider answers for a postcode, in the given order. Each
 * address is its parts (building, street, locality, town); an empty part is stored and left out
 * on lookup, as in the demo data.
 */
export async function buildPostcodeAddresses(db: Database, postcode: string, addresses: readonly (readonly string[])[]) {
  await db
    .insert(postcodeAddresses)
    .values(addresses.map((lines) => ({ postcode: normalizePostcode(postcode), lines: [...lines] })));
}
