import { solicitors } from '../../db/schema';
import { refuseDuplicate } from '../../errors/database-errors';
import { type ServiceContext } from '../context';
import { solicitorCreateSchema, type SolicitorCreateInput } from '../../../shared/schemas/administration';
import { recordAudit } from '../audit';
import { parseForm } from '../accounts/managed-accounts';
import { getSolicitor } from './get-solicitor';
import { assertEmailFree, toPence } from './solicitor-record';

export async function createSolicitor(ctx: ServiceContext, body: unknown) {
  const { db, actor: user } = ctx;
  const input: SolicitorCreateInput = parseForm(solicitorCreateSchema, body);
  const id = await refuseDuplicate({ email: 'addressUsed' }, () =>
    db.transaction(async (tx) => {
      await assertEmailFree(tx, input.email);
      const [row] = await tx
        .insert(solicitors)
        .values({
          name: input.name,
          address: input.address,
          contactNumber: input.contactNumber,
          email: input.email,
          feePence: toPence(input.fee),
          deliveryMethod: input.deliveryMethod,
        })
        .returning({ id: solicitors.id });
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'solicitor',
        entityId: row!.id,
        action: 'created',
        to: { ...input },
      });
      return row!.id;
    }),
  );
  return getSolicitor(ctx, { id });
}
