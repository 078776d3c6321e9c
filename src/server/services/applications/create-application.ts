import { and, eq, isNull, sql } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { isUniqueViolation } from '../../errors/database-errors';
import { applications, applicationSteps, clients, lawyers, users } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { inviteUser } from '../accounts/invite-user';
import { enqueueEmail } from '../../mail/outbox';
import { newApplicationEmail } from '../../mail/templates';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { clientFields, normalizeEmail } from './client-fields';
import { findApplication } from './find-application';
import { presentApplication, type ApplicationRecord } from './present-application';
import { validatedStep } from './validated-step';
import { countApplicationCreate } from '../../auth/application-create-limit';

async function resolveLawyer(db: Database, user: SessionUser, requested: number | undefined): Promise<number> {
  if (user.role === 'lawyer') {
    if (!user.lawyerId || (requested !== undefined && requested !== user.lawyerId)) throw AppError.forbidden();
    return user.lawyerId;
  }
  if (requested === undefined) throw AppError.validation({ lawyerId: 'required' });
  const [lawyer] = await db
    .select({ id: lawyers.id })
    .from(lawyers)
    .where(and(eq(lawyers.id, requested), isNull(lawyers.deletedAt)));
  if (!lawyer) throw AppError.validation({ lawyerId: 'invalid' });
  return lawyer.id;
}

const loginTaken = () => AppError.validation({ login: 'login' });

/**
 * The client of this lawyer who has the account `userId` (a client with an application of theirs
 * already), or undefined: a client of another lawyer only, or an account that is no client.
 */
async function clientOfLawyer(db: Database, userId: number, lawyerId: number) {
  const [row] = await db
    .select({ clientId: clients.id })
    .from(clients)
    .innerJoin(applications, eq(applications.clientId, clients.id))
    .where(and(eq(clients.userId, userId), isNull(clients.deletedAt), eq(applications.lawyerId, lawyerId)))
    .limit(1);
  return row;
}

/**
 * The lawyer's first form: in one transaction the client's account (invited), the client, the
 * application (incomplete), its personal step (version 1), the invitation email and the audit
 * events. 400 `login` when the email already belongs to an account, unless that account is a
 * client of this lawyer already: the application is then made for that client, with no new account,
 * and the client is told by email (a new invitation while they have not joined), decision 344.
 */
export async function createApplication(
  { db, config, actor: user }: ServiceContext,
  body: { lawyerId?: number; journeyData: { personal: unknown } },
): Promise<ApplicationRecord> {
  const lawyerId = await resolveLawyer(db, user, body.lawyerId);
  const personal = validatedStep('personal', body.journeyData.personal, 'lawyer');
  const email = normalizeEmail(personal.email);
  const [existing] = await db
    .select({ id: users.id, status: users.status })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)));
  const ownClient = existing ? await clientOfLawyer(db, existing.id, lawyerId) : undefined;
  if (existing && !ownClient) throw loginTaken();
  const client = clientFields(personal);

  /** The application of a client of this lawyer who has an account already (decision 344). */
  const createForClient = async (tx: Database, known: { clientId: number; userId: number; status: string }) => {
    const [application] = await tx
      .insert(applications)
      .values({ lawyerId, clientId: known.clientId, status: 'incomplete', startedAt: sql`now()` })
      .returning({ id: applications.id });
    const applicationId = application!.id;
    await tx
      .insert(applicationSteps)
      .values({ applicationId, step: 'personal', data: personal as Record<string, unknown>, version: 1, updatedBy: user.id });
    if (known.status === 'invited') {
      await inviteUser(tx, config, { userId: known.userId, email, kind: 'customer', actorUserId: user.id, applicationId });
    } else {
      const message = newApplicationEmail(config.brand, `${config.publicUrl}/sign-in`);
      await enqueueEmail(tx, { to: email, ...message, userType: 'customer', applicationId });
    }
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'application',
      entityId: applicationId,
      action: 'created',
      to: { status: 'incomplete', lawyerId, clientId: known.clientId, existingClient: true },
    });
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'application',
      entityId: applicationId,
      action: 'stepSaved',
      from: { step: 'personal', version: 0 },
      to: { step: 'personal', version: 1 },
    });
    return applicationId;
  };

  try {
    const id = await db.transaction(async (tx) => {
      // The lawyer must still be live when the application is written: a delete of the lawyer (or
      // their firm) holds the row FOR UPDATE, so this waits for it and then sees deleted_at.
      const [live] = await tx
        .select({ id: lawyers.id })
        .from(lawyers)
        .where(and(eq(lawyers.id, lawyerId), isNull(lawyers.deletedAt)))
        .for('share');
      if (!live) throw user.role === 'lawyer' ? AppError.forbidden() : AppError.validation({ lawyerId: 'invalid' });
      await countApplicationCreate(tx, user);
      if (existing && ownClient)
        return createForClient(tx, { clientId: ownClient.clientId, userId: existing.id, status: existing.status });
      const [account] = await tx
        .insert(users)
        .values({ email, role: 'customer', firstName: client.firstName, surname: client.lastName, status: 'invited' })
        .returning({ id: users.id });
      const [clientRow] = await tx
        .insert(clients)
        .values({ userId: account!.id, ...client })
        .returning({ id: clients.id });
      const [application] = await tx
        .insert(applications)
        .values({ lawyerId, clientId: clientRow!.id, status: 'incomplete', startedAt: sql`now()` })
        .returning({ id: applications.id });
      const applicationId = application!.id;
      await tx
        .insert(applicationSteps)
        .values({ applicationId, step: 'personal', data: personal as Record<string, unknown>, version: 1, updatedBy: user.id });
      await inviteUser(tx, config, { userId: account!.id, email, kind: 'customer', actorUserId: user.id, applicationId });
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'client',
        entityId: clientRow!.id,
        action: 'created',
        to: { userId: account!.id },
      });
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'application',
        entityId: applicationId,
        action: 'created',
        to: { status: 'incomplete', lawyerId, clientId: clientRow!.id },
      });
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'application',
        entityId: applicationId,
        action: 'stepSaved',
        from: { step: 'personal', version: 0 },
        to: { step: 'personal', version: 1 },
      });
      return applicationId;
    });
    return presentApplication(db, user, await findApplication(db, user, id), config.reminders);
  } catch (error) {
    // Another request took the email between our check and the insert (the live-email index).
    if (isUniqueViolation(error)) throw loginTaken();
    throw error;
  }
}
