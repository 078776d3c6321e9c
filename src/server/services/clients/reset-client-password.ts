import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/connection';
import { AppError } from '../../errors/app-error';
import { type ServiceContext } from '../context';
import { emailSchema } from '../../../shared/schemas/account';
import * as v from 'valibot';
import { requestPasswordReset } from '../accounts/request-password-reset';
import { recordAudit } from '../audit';
import { inScope } from './client-record';

/**
 * Sends a client the password reset email. The email must belong to a client the caller reaches
 * (else 404); the reset itself is the sign-in screen's (its link, its rate limits: 429).
 */
export async function resetClientPassword(ctx: ServiceContext, body: { email: string }): Promise<void> {
  const { db, actor: user } = ctx;
  const parsed = v.safeParse(emailSchema, body.email);
  if (!parsed.success) throw AppError.ruleFailed({ email: parsed.issues[0]?.message ?? 'email' });
  const email = parsed.output;
  const [client] = await queryRows<{ id: number; userId: number }>(
    db,
    sql`select c.id, c.user_id as "userId" from clients c join users u on u.id = c.user_id
        where u.email = ${email} and u.deleted_at is null and c.deleted_at is null and u.role = 'customer'
          and exists (select 1 from applications join lawyers on lawyers.id = applications.lawyer_id where applications.client_id = c.id and ${inScope(user)})
        limit 1`,
  );
  if (!client) throw AppError.notFound();
  await requestPasswordReset(ctx, { login: email });
  await recordAudit(db, {
    actorUserId: user.id,
    entityType: 'client',
    entityId: client.id,
    action: 'passwordResetSent',
    to: { userId: client.userId },
  });
}
