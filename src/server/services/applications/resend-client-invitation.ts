import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { applications, applicationSteps, users, userTokens } from '../../db/schema';
import { isUniqueViolation } from '../../errors/database-errors';
import { AppError } from '../../errors/app-error';
import * as applicationPolicy from '../../policies/applications';
import { inviteUser } from '../accounts/invite-user';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { takeAttempt } from '../../auth/rate-limit';
import { assertCan } from '../../policies/assert-can';
import { EMAIL_PATTERN } from '../../../shared/schemas/account';
import { CLIENT_INVITATION_WINDOW_MS, CLIENT_INVITATIONS_PER_WINDOW } from '../../../shared/rules/rate-limits';
import { EMAIL_MAX_LENGTH } from '../../../shared/rules/limits';
import { findApplication } from './find-application';
import { normalizeEmail } from './client-fields';

const emailSchema = v.pipe(v.string(), v.trim(), v.maxLength(EMAIL_MAX_LENGTH), v.regex(EMAIL_PATTERN));

const clientJoined = () => new AppError(409, 'clientJoined');
const emailTaken = () => AppError.validation({ email: 'login' });

/**
 * Before the client joins, their lawyer (or staff) corrects the email the client was invited at and
 * sends the invitation again (decision 344). In one transaction, under the account's row lock: the
 * account's email and the email of the client details of each of the client's applications change,
 * every earlier invitation link of the account is used up (stops working), a new one is emailed,
 * and the correction is audited. The same email sends the invitation again without a change.
 */
export async function resendClientInvitation(
  { db, config, actor }: ServiceContext,
  input: { id: number; email: string },
): Promise<{ email: string }> {
  const found = await findApplication(db, actor, input.id);
  assertCan(applicationPolicy.can(actor, 'inviteClient', found));
  const parsed = v.safeParse(emailSchema, input.email);
  if (!parsed.success) throw AppError.validation({ email: 'email' });
  const email = normalizeEmail(parsed.output);
  if (found.clientStatus !== 'invited') throw clientJoined();

  const attempt = await takeAttempt(
    db,
    [{ key: `client-invitation:application:${found.id}`, max: CLIENT_INVITATIONS_PER_WINDOW }],
    CLIENT_INVITATION_WINDOW_MS,
  );
  if (!attempt.allowed) throw new AppError(429, 'tooManyAttempts', { retryAfter: attempt.retryAfter });

  try {
    await db.transaction(async (tx) => {
      // The account first: a sign-up through the old link at this moment queues here (and after
      // it the account is no longer invited), as does a second correction.
      const [account] = await tx
        .select({ id: users.id, email: users.email, status: users.status })
        .from(users)
        .where(and(eq(users.id, found.clientUserId), isNull(users.deletedAt)))
        .for('update');
      if (!account || account.status !== 'invited') throw clientJoined();
      if (email !== account.email) {
        const [other] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, email), isNull(users.deletedAt), ne(users.id, account.id)));
        if (other) throw emailTaken();
        await tx
          .update(users)
          .set({ email, updatedAt: sql`now()` })
          .where(eq(users.id, account.id));
        // The client details keep the address the client signs in with (save-step's emailLocked
        // compares them): every application of this client, in place, at the same version.
        await tx
          .update(applicationSteps)
          .set({ data: sql`jsonb_set(${applicationSteps.data}, '{email}', to_jsonb(${email}::text))` })
          .where(
            and(
              eq(applicationSteps.step, 'personal'),
              sql`${applicationSteps.applicationId} in (select ${applications.id} from ${applications} where ${applications.clientId} = ${found.clientId})`,
            ),
          );
      }
      // Every earlier invitation link stops working.
      await tx
        .update(userTokens)
        .set({ usedAt: sql`now()` })
        .where(and(eq(userTokens.userId, account.id), eq(userTokens.purpose, 'invitation'), isNull(userTokens.usedAt)));
      await inviteUser(tx, config, {
        userId: account.id,
        email,
        kind: 'customer',
        actorUserId: actor.id,
        applicationId: found.id,
      });
      await recordAudit(tx, {
        actorUserId: actor.id,
        entityType: 'application',
        entityId: found.id,
        action: 'clientInvitedAgain',
        from: { email: account.email },
        to: { email },
      });
    });
  } catch (error) {
    // Another account took the address between the check and the update (the live-email index).
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  return { email };
}
