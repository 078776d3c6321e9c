import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/connection';
import { applications, applicationSteps, clients, drawdowns, firms, lawyers, loans, solicitors, users } from '../db/schema';
import { hashPassword } from '../auth/passwords';
import { seedPostcodeAddresses } from './seed-addresses';
import { inviteUser } from '../services/accounts/invite-user';
import { recordAudit } from '../services/audit';
import { seedPreparedEnvelope } from '../services/esign/seed-envelope';
import { formatDate } from '../../shared/rules/formats';
import type { ApplicationStatus, DrawdownStatus } from '../../shared/rules/statuses';

import { DEMO_PASSWORD, demoAccounts } from './demo-accounts';

export { DEMO_PASSWORD, demoAccounts };

const DAY = 24 * 60 * 60 * 1000;

/** Applications still being filled in; they have no loan amount and no review checks yet. */
const inProgress: ApplicationStatus[] = ['incomplete', 'created'];
const reviewed = (status: ApplicationStatus) => !inProgress.includes(status) && status !== 'submitted';
const journeyDepth = (status: ApplicationStatus): JourneyDepth =>
  status === 'incomplete' ? 'first step' : status === 'created' ? 'some steps' : 'every step';
type JourneyDepth = 'first step' | 'some steps' | 'every step';
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

/**
 * Seeds an empty database with one account per role and enough records for every screen:
 * applications in several statuses, a loan with drawdowns in several statuses, a solicitor,
 * and invitations waiting in the mailbox. Runs once: a database with any user is left alone.
 */
export async function seedDemoData(db: Database, config: Config): Promise<boolean> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    // Several processes may start together on one PostgreSQL: one seeds, the others see users.
    await tx.execute(sql`select pg_advisory_xact_lock(7301965)`);
    const existing = await tx.select({ id: users.id }).from(users).limit(1);
    if (existing.length > 0) return false;

    const [firm] = await tx.insert(firms).values({ name: 'Harbour & Vale Solicitors LLP' }).returning();
    const account = async (email: string, role: string, firstName: string, surname: string, firmId: number | null = null) => {
      const [row] = await tx
        .insert(users)
        .values({ email, role, firstName, surname, firmId, passwordHash, status: 'active' })
        .returning();
      return row!;
    };
    await account(demoAccounts.root, 'root', 'Morgan', 'Reid');
    const admin = await account(demoAccounts.admin, 'admin', 'Alex', 'Turner');
    await account(demoAccounts.firm, 'firm', 'Fiona', 'Hale', firm!.id);
    const lawyerUser = await account(demoAccounts.lawyer, 'lawyer', 'Laura', 'Bennett', firm!.id);
    const [lawyer] = await tx.insert(lawyers).values({ userId: lawyerUser.id, firmId: firm!.id }).returning();

    const [solicitor] = await tx
      .insert(solicitors)
      .values([
        {
          name: 'Greenway Legal Advice',
          address: { postcode: 'SW1A 2AA', address: '14 Greycoat Place', house: '14', street: 'Greycoat Place', city: 'London' },
          contactNumber: '020 7946 0321',
          email: 'advice@greenway-legal.test',
          feePence: 25_000,
          deliveryMethod: 'Video call',
        },
        {
          name: 'Northgate Independent Solicitors',
          address: {
            postcode: 'M1 1AE',
            address: '3 Piccadilly Plaza',
            house: '3',
            street: 'Piccadilly Plaza',
            city: 'Manchester',
          },
          contactNumber: '0161 496 0754',
          email: 'hello@northgate-solicitors.test',
          feePence: 25_000,
          deliveryMethod: 'In person',
        },
      ])
      .returning({ id: solicitors.id });

    // The demo client can sign in; the others were invited and have not joined yet.
    const clientRows = [
      { first: 'Chris', last: 'Walker', email: demoAccounts.customer, status: 'customerAccepted', started: 40, active: true },
      { first: 'Priya', last: 'Shah', email: 'priya.shah@demo.test', status: 'incomplete', started: 0, active: false },
      { first: 'Daniel', last: 'Okafor', email: 'daniel.okafor@demo.test', status: 'submitted', started: 2, active: false },
      { first: 'Emma', last: 'Clarke', email: 'emma.clarke@demo.test', status: 'providerAccepted', started: 5, active: false },
      { first: 'Tom', last: 'Hughes', email: 'tom.hughes@demo.test', status: 'providerRejected', started: 12, active: false },
      {
        first: 'Sarah',
        last: 'Mitchell',
        email: 'sarah.mitchell@demo.test',
        status: 'esignPrepared',
        started: 20,
        active: false,
      },
      { first: 'Olivia', last: 'Grant', email: 'olivia.grant@demo.test', status: 'created', started: 1, active: false },
      { first: 'James', last: 'Patel', email: 'james.patel@demo.test', status: 'customerRejected', started: 25, active: false },
    ] satisfies { first: string; last: string; email: string; status: ApplicationStatus; started: number; active: boolean }[];

    let loanApplicationId = 0;
    for (const [index, c] of clientRows.entries()) {
      const [user] = await tx
        .insert(users)
        .values({
          email: c.email,
          role: 'customer',
          firstName: c.first,
          surname: c.last,
          passwordHash: c.active ? passwordHash : null,
          status: c.active ? 'active' : 'invited',
        })
        .returning();
      const person = demoPerson(index);
      const [client] = await tx
        .insert(clients)
        .values({
          userId: user!.id,
          firstName: c.first,
          lastName: c.last,
          birthDate: person.birthDate,
          contactNumber: person.contactNumber,
        })
        .returning();
      const caseRef = `HV-${2026}-${String(101 + index).padStart(4, '0')}`;
      const [application] = await tx
        .insert(applications)
        .values({
          lawyerId: lawyer!.id,
          clientId: client!.id,
          status: c.status,
          caseRef,
          loanAmountPence: inProgress.includes(c.status) ? null : 5_000_000 + index * 250_000,
          kycAmlCheck: reviewed(c.status),
          credidCheck: reviewed(c.status),
          repaymentVehicle: reviewed(c.status),
          startedAt: daysAgo(c.started),
          createdAt: daysAgo(c.started),
        })
        .returning();
      await tx
        .insert(applicationSteps)
        .values(demoJourney(application!.id, c, person, caseRef, journeyDepth(c.status), lawyerUser.id, solicitor!.id));
      if (!c.active)
        await inviteUser(tx, config, {
          userId: user!.id,
          email: c.email,
          kind: 'customer',
          actorUserId: lawyerUser.id,
          applicationId: application!.id,
        });
      if (c.status === 'customerAccepted') loanApplicationId = application!.id;
      if (c.status === 'esignPrepared') await seedPreparedEnvelope(tx, config, application!.id, admin.id);
    }

    const [loan] = await tx
      .insert(loans)
      .values({ applicationId: loanApplicationId, amountPence: 5_000_000, status: 'open', createdAt: daysAgo(30) })
      .returning();
    const drawdownRows: { status: DrawdownStatus; pounds: number; ago: number }[] = [
      { status: 'paid', pounds: 5_000, ago: 28 },
      { status: 'customerApproved', pounds: 3_000, ago: 14 },
      { status: 'providerRejected', pounds: 1_000, ago: 9 },
      { status: 'providerApproved', pounds: 4_000, ago: 4 },
      { status: 'requested', pounds: 2_500, ago: 0 },
    ];
    for (const [i, d] of drawdownRows.entries()) {
      await tx.insert(drawdowns).values({
        loanId: loan!.id,
        status: d.status,
        amountPence: d.pounds * 100,
        invoiceNumber: `INV-${3401 + i}`,
        stageOfCase: [
          'First appointment',
          'Financial dispute resolution',
          'Disclosure',
          'Final hearing preparation',
          'Final hearing',
        ][i]!,
        materialChanges: i === 2,
        materialChangesDetails: i === 2 ? 'The former matrimonial home has been valued again.' : null,
        nextHearingDate: formatDate(new Date(Date.now() + (30 + i * 14) * DAY)),
        finalOrderDate: formatDate(new Date(Date.now() + 180 * DAY)),
        reaplyAssets: 'Share of the sale proceeds of the former matrimonial home',
        expectedRepaymentDate: formatDate(new Date(Date.now() + 240 * DAY)),
        lawyerDeclarations: {
          noMaterialChangeLegal: true,
          noMaterialChangeFinancial: true,
          noMaterialChangeMaterial: i !== 2,
          settlementSufficient: true,
          currentLoanSufficient: true,
          solicitorNotified: true,
          obligationsCompiled: true,
        },
        // The client's signature on the ones they approved: a day after the request, from a phone.
        ...(d.status === 'customerApproved' || d.status === 'paid'
          ? { clientApprovedAt: daysAgo(d.ago - 1), clientApprovalAddress: '127.0.0.1', clientApprovalDevice: 'Demo phone' }
          : {}),
        clientDeclarations:
          d.status === 'customerApproved' || d.status === 'paid'
            ? {
                satisfiedWithService: true,
                satisfiedWithSolicitorFee: true,
                approvalToPayAmount: true,
                compliedWithTNC: true,
                confirmLoanBalance: true,
              }
            : null,
        requestedBy: lawyerUser.id,
        createdAt: daysAgo(d.ago),
        updatedAt: daysAgo(d.ago),
      });
    }
    await seedPostcodeAddresses(tx);
    await recordAudit(tx, {
      actorUserId: admin.id,
      entityType: 'database',
      entityId: 'demo',
      action: 'seeded',
      to: { demo: true },
    });
    return true;
  });
}

/** The n-th demo client's date of birth and phone number, the same in the client row and the journey. */
function demoPerson(index: number) {
  const year = 1980 + index;
  const month = (index % 9) + 1;
  const day = 10 + index;
  return {
    year,
    month,
    day,
    birthDate: `${year}-${String(month).padStart(2, '0')}-${day}`,
    contactNumber: `07700 900${100 + index}`,
    title: (['Mr', 'Ms', 'Mr', 'Mrs', 'Mr', 'Ms', 'Miss', 'Mr'] as const)[index % 8]!,
    gender: (['Male', 'Female', 'Male', 'Female', 'Male', 'Female', 'Female', 'Prefer not to say'] as const)[index % 8]!,
  };
}

/**
 * Journey data that reads like a real case, as far as the application's status has got. Every
 * saved step passes the shared step rules (src/shared/journey/validate.ts), as a saved step must.
 */
function demoJourney(
  applicationId: number,
  c: { first: string; last: string; email: string },
  person: ReturnType<typeof demoPerson>,
  caseRef: string,
  depth: JourneyDepth,
  updatedBy: number,
  solicitorId: number,
) {
  const personal = {
    firstName: c.first,
    lastName: c.last,
    email: c.email,
    birthDayDay: person.day,
    birthMonth: person.month,
    birthYear: person.year,
    metClient: true,
    title: person.title,
    gender: person.gender,
    nationality: 'British',
    contactNumber: person.contactNumber,
    dependants: true,
    dependantsUnder18: 2,
    dependantsOther: 0,
    addressHistory: [
      { type: 'manually', postcode: 'BS8 1TH', house: '22', street: 'Royal York Crescent', city: 'Bristol', date: '2024-09-01' },
      { type: 'postcode', address: '10 Downing Street, London', postcode: 'SW1A 2AA', date: '2015-06-01' },
    ],
    status: 'employedFullTime',
    occupation: 'Project manager',
    employer: 'Northwind Logistics Ltd',
    yearsWithEmployer: 6,
  };
  const rows: { applicationId: number; step: string; data: Record<string, unknown>; updatedBy: number }[] = [
    { applicationId, step: 'personal', data: personal, updatedBy },
  ];
  if (depth === 'first step') return rows;
  rows.push({ applicationId, step: 'client', data: { clientAgree: true }, updatedBy });
  if (depth === 'some steps') return rows;
  rows.push(
    {
      applicationId,
      step: 'case',
      data: {
        caseRef,
        timeEstimation: '12 months',
        stageOfProceedings: 'Financial dispute resolution',
        disputeLevel: 'optionB',
        yearsMarried: 11,
        settlementPrinciples: 'An equal division of the matrimonial assets, with the former home sold.',
        preNuptualAgreement: false,
        completion: 'greater',
        feeEstimate: 60000,
        feeEstimateToReach: 45000,
        relevantProceedings: false,
        jurisDisputes: false,
        maintenancePaid: true,
        thirdPartyInvolvement: false,
        settlementOffer: true,
        clientReactionDetails: 'The client considers the offer too low and wishes to continue to a hearing.',
        outstandingFees: 8500,
        clientSuffered: false,
        dateToKnowMore: '2026-09-30',
      },
      updatedBy,
    },
    {
      applicationId,
      step: 'financial',
      data: {
        estimationOfSettlementAmount: 450000,
        monthlyIncome: 4200,
        monthlyExpenditure: 2900,
        nonEssMonthlyExpenditure: 350,
        intendedHousingArrangements: 'Buy a smaller home near the children’s school',
      },
      updatedBy,
    },
    {
      applicationId,
      step: 'asset',
      data: {
        submittedFormE: false,
        additionalProperty: false,
        includeOtherAssets: false,
        assetValue: 450000,
        routeToRepayment: 'Settlement proceeds',
      },
      updatedBy,
    },
    {
      applicationId,
      step: 'independent',
      data: { useOwnSolicitor: false, solicitorId, consent: true, authorised: true },
      updatedBy,
    },
  );
  return rows;
}
