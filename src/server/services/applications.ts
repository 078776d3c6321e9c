import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { SessionUser } from '../auth/sessions';
import type { Database } from '../db/connection';
import { applications, applicationSteps, clients, files, lawyers, solicitors, users } from '../db/schema';
import { AppError } from '../http/app-error';
import { sqlStateOf } from '../http/error-handler';
import { audienceOf, isEditable, mayEditJourney, neverTargets, stepsToSubmit, transitions } from '../policies/applications';
import { inviteUser } from './accounts';
import { recordAudit } from './audit';
import { findApplication, applicationRecord, type ApplicationRecord } from './application-record';
import { validateStep } from '../../shared/journey/validate';
import type { Journey, JourneyData, JourneyStep } from '../../shared/journey/steps';
import type { ApplicationStatus } from '../../shared/rules/statuses';

export { listApplications } from './application-list';
export { getApplication } from './application-record';

type Personal = JourneyData['personal'];

/** Runs the shared step rules (the same the forms run) on the server; 400 with field codes. */
function validated<S extends JourneyStep>(step: S, data: unknown, audience: 'lawyer' | 'customer'): JourneyData[S] {
  const result = validateStep(step, data, { audience, today: new Date() });
  if (!result.success) throw AppError.ruleFailed(result.fields);
  return result.output;
}

const normalizeEmail = (email: string | undefined) => (email ?? '').trim().toLowerCase();

/** The ISO date of the journey's three birth-date numbers, or null when they make no date. */
function birthDate(p: Personal): string | null {
  const { birthYear: y, birthMonth: m, birthDayDay: d } = p;
  if (!y || !m || !d) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** The client's record follows the personal step: names, contact number and date of birth. */
function clientFields(p: Personal) {
  return {
    firstName: (p.firstName ?? '').trim(),
    lastName: (p.lastName ?? '').trim(),
    contactNumber: p.contactNumber?.trim() || null,
    birthDate: birthDate(p),
  };
}

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
 * The lawyer's first form: in one transaction the client's account (invited), the client, the
 * application (incomplete), its personal step (version 1), the invitation email and the audit
 * events. 400 `login` when the email already belongs to an account.
 */
export async function createApplication(
  db: Database,
  config: Config,
  user: SessionUser,
  body: { lawyerId?: number; journeyData: { personal: unknown } },
): Promise<ApplicationRecord> {
  const lawyerId = await resolveLawyer(db, user, body.lawyerId);
  const personal = validated('personal', body.journeyData.personal, 'lawyer');
  const email = normalizeEmail(personal.email);
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)));
  if (existing) throw loginTaken();
  const client = clientFields(personal);

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
      const [account] = await tx
        .insert(users)
        .values({ email, role: 'customer', firstName: client.firstName, surname: client.lastName, status: 'invited' })
        .returning({ id: users.id });
      const [clientRow] = await tx.insert(clients).values({ userId: account!.id, ...client }).returning({ id: clients.id });
      const [application] = await tx
        .insert(applications)
        .values({ lawyerId, clientId: clientRow!.id, status: 'incomplete', startedAt: sql`now()` })
        .returning({ id: applications.id });
      const applicationId = application!.id;
      await tx.insert(applicationSteps).values({ applicationId, step: 'personal', data: personal as Record<string, unknown>, version: 1, updatedBy: user.id });
      await inviteUser(tx, config, { userId: account!.id, email, kind: 'customer', actorUserId: user.id, applicationId });
      await recordAudit(tx, { actorUserId: user.id, entityType: 'client', entityId: clientRow!.id, action: 'created', to: { userId: account!.id } });
      await recordAudit(tx, { actorUserId: user.id, entityType: 'application', entityId: applicationId, action: 'created', to: { status: 'incomplete', lawyerId, clientId: clientRow!.id } });
      await recordAudit(tx, { actorUserId: user.id, entityType: 'application', entityId: applicationId, action: 'stepSaved', from: { step: 'personal', version: 0 }, to: { step: 'personal', version: 1 } });
      return applicationId;
    });
    return applicationRecord(db, user, await findApplication(db, user, id));
  } catch (error) {
    // Another request took the email between our check and the insert (the live-email index).
    if (sqlStateOf(error) === '23505') throw loginTaken();
    throw error;
  }
}

export interface StepSaved {
  data: Journey;
  version: number;
}

/**
 * Saves one step. The caller edits from `baseVersion`; when the stored copy has moved on, 409
 * `conflict` with the stored copy. The application row is locked for the save, so two saves of
 * one application (and a save and a submit) never interleave.
 */
export async function updateApplicationStep(
  db: Database,
  user: SessionUser,
  step: JourneyStep,
  body: { applicationId: number; baseVersion: number; journeyData: Journey },
): Promise<StepSaved> {
  const keys = Object.keys(body.journeyData);
  if (keys.length !== 1 || keys[0] !== step) throw AppError.validation({ journeyData: 'invalid' });
  const found = await findApplication(db, user, body.applicationId);
  if (!mayEditJourney(user, found)) throw AppError.forbidden();
  if (!isEditable(found.status)) throw new AppError(409, 'notEditable');
  const audience = audienceOf(user);
  const data = validated(step, body.journeyData[step], audience);
  if (step === 'personal' && normalizeEmail((data as Personal).email) !== found.clientEmail) throw AppError.validation({ email: 'emailLocked' });

  return db.transaction(async (tx) => {
    const application = await findApplication(tx, user, body.applicationId, { forUpdate: true });
    if (!isEditable(application.status)) throw new AppError(409, 'notEditable');
    const [stored] = await tx
      .select({ data: applicationSteps.data, version: applicationSteps.version })
      .from(applicationSteps)
      .where(and(eq(applicationSteps.applicationId, application.id), eq(applicationSteps.step, step)));
    if (step === 'asset') await checkDocuments(tx, application.id, data as JourneyData['asset']);
    if (step === 'independent') await checkSolicitor(tx, data as JourneyData['independent']);
    const current = stored?.version ?? 0;
    if (current !== body.baseVersion) {
      throw new AppError(409, 'conflict', { current: { data: stored ? { [step]: stored.data } : {}, version: current } });
    }
    const version = current + 1;
    const row = { data: data as Record<string, unknown>, version, updatedBy: user.id, updatedAt: sql`now()` };
    if (stored) {
      await tx
        .update(applicationSteps)
        .set(row)
        .where(and(eq(applicationSteps.applicationId, application.id), eq(applicationSteps.step, step), eq(applicationSteps.version, current)));
    } else {
      await tx.insert(applicationSteps).values({ applicationId: application.id, step, ...row });
    }
    await recordAudit(tx, { actorUserId: user.id, entityType: 'application', entityId: application.id, action: 'stepSaved', from: { step, version: current }, to: { step, version } });

    const changes: Partial<typeof applications.$inferInsert> = { updatedAt: sql`now()` as unknown as Date };
    if (step === 'case') changes.caseRef = (data as JourneyData['case']).caseRef?.trim() || null;
    // The client's first save: the client has joined and the form is under way.
    if (user.role === 'customer' && application.status === 'incomplete') {
      changes.status = 'created';
      await recordAudit(tx, { actorUserId: user.id, entityType: 'application', entityId: application.id, action: 'statusChanged', from: { status: 'incomplete' }, to: { status: 'created' } });
    }
    await tx.update(applications).set(changes).where(eq(applications.id, application.id));

    if (step === 'personal') {
      const client = clientFields(data as Personal);
      await tx.update(clients).set({ ...client, updatedAt: sql`now()` }).where(eq(clients.id, application.clientId));
      await tx.update(users).set({ firstName: client.firstName, surname: client.lastName, updatedAt: sql`now()` }).where(eq(users.id, application.clientUserId));
    }
    return { data: { [step]: data } as Journey, version };
  });
}

/**
 * The Form E documents a step names must be this application's own live Form E files: the list
 * proves "a document is required", so an id from elsewhere (or a deleted file) is refused.
 */
async function checkDocuments(db: Database, applicationId: number, data: JourneyData['asset']): Promise<void> {
  const named = new Set(data.documents ?? []).size;
  if (named > 0 && (await liveDocumentCount(db, applicationId, data)) !== named) throw AppError.validation({ documents: 'invalid' });
}

/** How many of the documents a step names are this application's own live Form E files. */
async function liveDocumentCount(db: Database, applicationId: number, data: JourneyData['asset']): Promise<number> {
  const ids = [...new Set(data.documents ?? [])];
  if (ids.length === 0) return 0;
  const found = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.applicationId, applicationId), eq(files.type, 'formE'), isNull(files.deletedAt), inArray(files.id, ids)));
  return found.length;
}

/**
 * The solicitor an independent step names must be a live solicitor (the list the form offers).
 * The row is share-locked: a delete of that solicitor waits for this save and then sees its case,
 * or this save waits for the delete and is refused.
 */
async function checkSolicitor(db: Database, data: JourneyData['independent']): Promise<void> {
  const id = data.solicitorId;
  if (id === undefined || id === null) return;
  const [live] = await db
    .select({ id: solicitors.id })
    .from(solicitors)
    .where(and(eq(solicitors.id, id), isNull(solicitors.deletedAt)))
    .for('share');
  if (!live) throw AppError.validation({ solicitorId: 'invalid' });
}

/**
 * Moves an application to another status, by the transitions table of the policy: 403 for a
 * role that may never make the change, 409 when the current status does not allow it. Submitting
 * needs every step of the submitter's own form valid: 400 `incompleteSteps` naming the others.
 */
export async function updateApplicationState(
  db: Database,
  user: SessionUser,
  body: { applicationId: number; state: ApplicationStatus; reason?: string },
): Promise<ApplicationRecord> {
  const found = await findApplication(db, user, body.applicationId);
  const transition = transitions[body.state];
  if (!transition) {
    if (neverTargets.includes(body.state)) throw new AppError(409, 'conflict');
    // Provider review, signing and the rest: built by later issues.
    throw new AppError(501, 'notImplemented');
  }
  if (!transition.roles.includes(user.role)) throw AppError.forbidden();
  if (body.state === 'submitted' && !mayEditJourney(user, found)) throw AppError.forbidden();
  if (!transition.from.includes(found.status as ApplicationStatus)) throw new AppError(409, 'conflict');

  await db.transaction(async (tx) => {
    const application = await findApplication(tx, user, body.applicationId, { forUpdate: true });
    const from = application.status as ApplicationStatus;
    if (!transition.from.includes(from)) throw new AppError(409, 'conflict');
    if (body.state === 'submitted') await checkComplete(tx, application.id, audienceOf(user));
    await tx.update(applications).set({ status: body.state, updatedAt: sql`now()` }).where(eq(applications.id, application.id));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'application',
      entityId: application.id,
      action: 'statusChanged',
      from: { status: from },
      to: { status: body.state, ...(body.reason ? { reason: body.reason } : {}) },
    });
  });
  return applicationRecord(db, user, await findApplication(db, user, body.applicationId));
}

/** Every step of the submitter's form must pass its rules; 400 `incompleteSteps` names the others. */
async function checkComplete(db: Database, applicationId: number, audience: 'lawyer' | 'customer'): Promise<void> {
  const rows = await db
    .select({ step: applicationSteps.step, data: applicationSteps.data })
    .from(applicationSteps)
    .where(eq(applicationSteps.applicationId, applicationId));
  const saved = new Map(rows.map((r) => [r.step, r.data]));
  const fields: Record<string, 'required'> = {};
  for (const step of stepsToSubmit(audience)) {
    const result = validateStep(step, saved.get(step) ?? {}, { audience, today: new Date() });
    if (!result.success) fields[step] = 'required';
  }
  // "With Form E a document is required": the files the step named may have been deleted since.
  const asset = saved.get('asset') as JourneyData['asset'] | undefined;
  if (!fields.asset && asset?.submittedFormE === true && (await liveDocumentCount(db, applicationId, asset)) === 0) fields.asset = 'required';
  if (Object.keys(fields).length > 0) throw new AppError(400, 'incompleteSteps', { fields });
}
