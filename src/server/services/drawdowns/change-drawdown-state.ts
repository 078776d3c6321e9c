import { eq, sql } from 'drizzle-orm';
import { drawdowns } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as drawdownPolicy from '../../policies/drawdowns';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { clientDeclarationKeys, type ClientDeclarationKey } from '../../../shared/rules/declarations';
import type { DrawdownStatus } from '../../../shared/rules/statuses';
import { drawdownTransitions, loanIsOpen, transitionAllowedFrom } from '../../../shared/rules/transitions';
import { lockLoan } from '../loans/find-loan';
import { tellDrawdownStatus } from './drawdown-notices';
import { findDrawdown, type DrawdownRow } from './find-drawdown';
import { drawdownFacts, presentDrawdown } from './present-drawdown';

type ClientDeclarations = Record<ClientDeclarationKey, boolean>;

/**
 * 409 unless the statuses allow the move now: `conflict` when the drawdown is no longer where the
 * move starts (someone acted first), `loanNotOpen` when only the loan's status stands in the way.
 */
function assertAllowedNow(drawdown: DrawdownRow, to: DrawdownStatus): void {
  if (drawdownPolicy.isAllowedNow({ changeStateTo: to }, drawdownFacts(drawdown))) return;
  const fromAllowed = transitionAllowedFrom(drawdownTransitions, drawdown.status, to);
  throw new AppError(409, fromAllowed && !loanIsOpen(drawdown.loanStatus) ? 'loanNotOpen' : 'conflict');
}

/** The client approves with all five declarations True (their signature); nothing else carries declarations. */
function checkedDeclarations(to: DrawdownStatus, declarations: Partial<ClientDeclarations> | undefined) {
  if (to !== 'customerApproved') {
    if (declarations) throw AppError.validation({ clientDeclarations: 'unknownField' });
    return undefined;
  }
  const fields: Record<string, 'required' | 'notAgreed'> = {};
  for (const key of clientDeclarationKeys) {
    const answer = declarations?.[key];
    if (answer === undefined) fields[`clientDeclarations.${key}`] = 'required';
    else if (answer !== true) fields[`clientDeclarations.${key}`] = 'notAgreed';
  }
  if (Object.keys(fields).length > 0) throw AppError.validation(fields);
  return declarations as ClientDeclarations;
}

/**
 * Moves a drawdown by the shared table (spec section 4): staff approve or reject a request and pay
 * a client-approved one; the client approves (the five declarations, all True) or rejects their
 * own. 403 for a caller who may never make the move, 409 when the statuses do not allow it now,
 * nothing changed. Under the loan's lock, so a block and an approval cannot cross. The client's
 * approval is recorded as their signature: the declarations, the time, their address and device,
 * on the drawdown and in the audit trail. Everyone concerned is told by email.
 */
export async function changeDrawdownState(
  { db, actor, config, origin }: ServiceContext,
  input: { id: number; state: DrawdownStatus; clientDeclarations?: Partial<ClientDeclarations> },
) {
  const to = input.state;
  const found = await findDrawdown(db, actor, input.id);
  assertCan(drawdownPolicy.can(actor, { changeStateTo: to }, found));
  const declarations = checkedDeclarations(to, input.clientDeclarations);
  assertAllowedNow(found, to);
  await db.transaction(async (tx) => {
    await lockLoan(tx, found.loanId);
    const drawdown = await findDrawdown(tx, actor, input.id);
    assertAllowedNow(drawdown, to);
    const signature = declarations
      ? {
          clientDeclarations: declarations,
          clientApprovedAt: new Date(),
          clientApprovalAddress: origin.address,
          clientApprovalDevice: origin.device,
        }
      : {};
    await tx
      .update(drawdowns)
      .set({ status: to, ...signature, updatedAt: sql`now()` })
      .where(eq(drawdowns.id, drawdown.id));
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'drawdown',
      entityId: drawdown.id,
      action: 'statusChanged',
      from: { status: drawdown.status },
      to: {
        status: to,
        ...(declarations
          ? {
              signature: {
                declarations,
                at: signature.clientApprovedAt!.toISOString(),
                address: origin.address,
                device: origin.device,
              },
            }
          : {}),
      },
    });
    await tellDrawdownStatus(tx, config, drawdown, to);
  });
  return presentDrawdown(actor, await findDrawdown(db, actor, input.id), config.reminders);
}
