import { eq, sql } from 'drizzle-orm';
import { drawdowns } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as drawdownPolicy from '../../policies/drawdowns';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { creditLimit } from '../../../shared/rules/credit';
import { drawdownAmountCode } from '../../../shared/rules/drawdown-request';
import type { components } from '../../../shared/api/schema';
import { lockLoan } from '../loans/find-loan';
import { checkedRequest } from './checked-request';
import { tellDrawdownChanged } from './drawdown-notices';
import { findDrawdown, type DrawdownRow } from './find-drawdown';
import { drawdownFacts, presentDrawdown } from './present-drawdown';

function assertEditable(drawdown: DrawdownRow): void {
  if (!drawdownPolicy.isAllowedNow('edit', drawdownFacts(drawdown)))
    throw new AppError(409, drawdown.status === 'requested' ? 'loanNotOpen' : 'conflict');
}

type Columns = ReturnType<typeof checkedRequest>;

/** A value as JSON with its object keys sorted: the declarations come back from jsonb in another order. */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );

/** The columns the change alters, each as it was and as it becomes (the audit's from and to). */
function changedColumns(before: DrawdownRow, after: Columns) {
  const from: Record<string, unknown> = {};
  const to: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(after) as [keyof Columns, unknown][]) {
    const was: unknown = before[column];
    if (canonical(was) === canonical(value)) continue;
    from[column] = was;
    to[column] = value;
  }
  return { from, to, changed: Object.keys(to).length > 0 };
}

/**
 * The lawyer who requested it changes their request while it is still requested and the loan open
 * (409 otherwise): the same checks as a new request, the credit counted without the request's own
 * amount, under the loan's lock (docs/decisions.md, 234). Audited with every column that changed,
 * as it was and as it became; the provider is told. A change that alters nothing writes nothing.
 */
export async function updateDrawdown(
  { db, actor, config }: ServiceContext,
  { id, ...body }: components['schemas']['DrawdownRequest'] & { id: number },
) {
  const values = checkedRequest(body);
  const found = await findDrawdown(db, actor, id);
  assertCan(drawdownPolicy.can(actor, 'edit', found));
  if (body.applicationId !== found.applicationId) throw AppError.validation({ applicationId: 'invalid' });
  assertEditable(found);
  await db.transaction(async (tx) => {
    await lockLoan(tx, found.loanId);
    const drawdown = await findDrawdown(tx, actor, id);
    assertEditable(drawdown);
    // The request's own amount is among the drawn (it is requested): it may be replaced, not added to.
    const credit = creditLimit({
      signedPence: drawdown.loanAmountPence,
      pendingPence: drawdown.loanPendingAmountPence,
      drawnPence: drawdown.loanDrawnPence - drawdown.amountPence,
    });
    const code = drawdownAmountCode(body.amount, credit);
    if (code) throw AppError.ruleFailed({ amount: code });
    const { from, to, changed } = changedColumns(drawdown, values);
    if (!changed) return;
    await tx
      .update(drawdowns)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(drawdowns.id, id));
    await recordAudit(tx, { actorUserId: actor.id, entityType: 'drawdown', entityId: id, action: 'changed', from, to });
    await tellDrawdownChanged(tx, config, { ...drawdown, amountPence: values.amountPence });
  });
  return presentDrawdown(actor, await findDrawdown(db, actor, id), config.reminders);
}
