import { and, eq, isNull } from 'drizzle-orm';
import { selectAccounts } from '../../db/account-query';
import { users } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { type ServiceContext } from '../context';
import { extraFields } from './user-record';

export async function getUser({ db }: ServiceContext, { id }: { id: number }) {
  const [user] = await selectAccounts(db, extraFields).where(and(eq(users.id, id), isNull(users.deletedAt)));
  if (!user) throw AppError.notFound();
  return user;
}
