import type { PublicContext } from '../context';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { users, userTokens } from '../../db/schema';
import { enqueueEmail } from '../../mail/outbox';
import { resetEmail } from '../../mail/templates';
import { recordAudit } from '../audit';
import { takeAttempt } from '../../auth/rate-limit';
import { clientAddressKey } from '../../auth/client-address';
import { resetRequestSchema } from '../../../shared/schemas/account';
import { RESET_MAX_PER_ACCOUNT, RESET_MAX_PER_ADDRESS, RESET_WINDOW_MS } from '../../../shared/rules/rate-limits';
import { RESET_TTL_MS } from '../../../shared/rules/limits';
import { issueToken, parse, tooMany, metaOf } from './account-record';

/** Always answers the same, whether or not the account exists: nobody learns who has one. */
export async function requestPasswordReset({ db, config, origin }: PublicContext, body: unknown): Promise<void> {
  const meta = metaOf(origin);
  const { login } = parse(resetRequestSchema, body);
  const attempt = await takeAttempt(
    db,
    [
      { key: `reset:address:${clientAddressKey(meta.ip)}`, max: RESET_MAX_PER_ADDRESS },
      { key: `reset:account:${login}`, max: RESET_MAX_PER_ACCOUNT },
    ],
    RESET_WINDOW_MS,
  );
  if (!attempt.allowed) throw tooMany(attempt.retryAfter);

  await db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, role: users.role, status: users.status })
      .from(users)
      .where(and(eq(users.email, login), isNull(users.deletedAt)));
    if (!user || user.status === 'disabled') return;
    // A newer link replaces any earlier one.
    await tx
      .update(userTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(userTokens.userId, user.id), eq(userTokens.purpose, 'reset'), isNull(userTokens.usedAt)));
    const token = await issueToken(tx, user.id, 'reset', RESET_TTL_MS);
    const email = resetEmail(config.brand, `${config.publicUrl}/reset/validate/${token}`);
    await enqueueEmail(tx, { to: login, ...email, userType: user.role });
    await recordAudit(tx, { actorUserId: null, entityType: 'user', entityId: user.id, action: 'passwordResetRequested' });
  });
}
