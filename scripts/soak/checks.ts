/**
 * What must hold after the soak, read straight from the database: every acknowledged write is
 * there exactly once (no write lost, none done twice by a retry), no loan is drawn past its
 * credit, and every call ended with an answer (no 5xx left without a retry that succeeded).
 */
import type pg from 'pg';
import { creditUsingDrawdownStatuses } from '../../src/shared/rules/statuses';
import type { Stats } from './client';
import type { Ledger } from './traffic';
import type { World } from './world';

export async function checkInvariants(database: pg.Pool, world: World, ledger: Ledger, stats: Stats): Promise<string[]> {
  const failures: string[] = [];
  const loanIds = world.firms.flatMap((f) => f.loans.map((loan) => loan.id));

  // Drawdowns: the rows of the soak's loans are exactly the acknowledged ones, each in the status last acknowledged.
  const { rows: drawdowns } = await database.query<{ id: number; loan_id: number; amount_pence: number; status: string }>(
    'select id, loan_id, amount_pence::int, status from drawdowns where loan_id = any($1::int[])',
    [loanIds],
  );
  const inDatabase = new Map(drawdowns.map((d) => [d.id, d]));
  for (const [id, acked] of ledger.drawdowns) {
    const row = inDatabase.get(id);
    if (!row) failures.push(`drawdown ${id} was acknowledged but is not in the database`);
    else if (row.status !== acked.status) failures.push(`drawdown ${id} is ${row.status}, acknowledged as ${acked.status}`);
    else if (row.amount_pence !== acked.amountPence)
      failures.push(`drawdown ${id} is ${row.amount_pence}p, acknowledged as ${acked.amountPence}p`);
  }
  for (const row of drawdowns)
    if (!ledger.drawdowns.has(row.id))
      failures.push(
        `drawdown ${row.id} (loan ${row.loan_id}) is in the database but was never acknowledged: a request done twice`,
      );

  // Credit: no loan drawn past what the client signed for.
  const { rows: credit } = await database.query<{ id: number; amount_pence: number; used: number }>(
    `select l.id, l.amount_pence::int, coalesce(sum(d.amount_pence) filter (where d.status = any($2::text[])), 0)::int as used
       from loans l left join drawdowns d on d.loan_id = l.id where l.id = any($1::int[]) group by l.id`,
    [loanIds, [...creditUsingDrawdownStatuses]],
  );
  for (const loan of credit)
    if (loan.used > loan.amount_pence)
      failures.push(`loan ${loan.id} is drawn to ${loan.used}p, past its credit of ${loan.amount_pence}p`);

  // Step saves: one version per acknowledged save, none lost, none counted twice.
  for (const [applicationId, saves] of ledger.stepSaves) {
    const { rows } = await database.query<{ version: number }>(
      `select version from application_steps where application_id = $1 and step = 'case'`,
      [applicationId],
    );
    if (rows[0]?.version !== saves)
      failures.push(
        `application ${applicationId}'s case step is at version ${rows[0]?.version}, after ${saves} acknowledged saves`,
      );
  }

  // Uploads: exactly the acknowledged files, each with its bytes stored.
  for (const [applicationId, ids] of ledger.uploads) {
    const { rows } = await database.query<{ id: number; stored: boolean }>(
      `select f.id, exists (select 1 from stored_files s where s.key = f.key and s.complete) as stored
         from files f where f.application_id = $1 and f.deleted_at is null`,
      [applicationId],
    );
    const found = rows.map((r) => r.id).sort((a, b) => a - b);
    const acked = [...ids].sort((a, b) => a - b);
    if (found.join() !== acked.join())
      failures.push(`application ${applicationId} has files [${found}], acknowledged [${acked}]`);
    for (const row of rows) if (!row.stored) failures.push(`file ${row.id} has no stored bytes`);
  }

  // Signatures: each signed application has exactly one loan, the acknowledged one; one not signed has none.
  for (const { signingApplicationId: applicationId } of world.firms) {
    const { rows } = await database.query<{ id: number }>('select id from loans where application_id = $1', [applicationId]);
    const loanId = ledger.signed.get(applicationId);
    const expected = loanId === undefined ? [] : [loanId];
    if (rows.map((r) => r.id).join() !== expected.join())
      failures.push(`application ${applicationId} has loans [${rows.map((r) => r.id)}], acknowledged [${expected}]`);
  }

  // The run did what it is for: writes of every kind were acknowledged, so the checks above checked something.
  const uploads = [...ledger.uploads.values()].reduce((sum, ids) => sum + ids.length, 0);
  const saves = [...ledger.stepSaves.values()].reduce((sum, n) => sum + n, 0);
  const paid = [...ledger.drawdowns.values()].filter((d) => d.status === 'paid').length;
  for (const [what, count] of [
    ['drawdowns paid', paid],
    ['step saves', saves],
    ['uploads', uploads],
    ['signatures', ledger.signed.size],
  ] as const)
    if (count === 0) failures.push(`no ${what} were acknowledged: the run checked nothing of them`);

  for (const call of stats.unretried) failures.push(`no answer after every retry: ${call}`);
  for (const error of stats.internalErrors) failures.push(`500: ${error}`);
  return failures;
}
