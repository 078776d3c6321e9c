import { and, ilike, or, sql, type SQL } from 'drizzle-orm';
import { applications, clients } from '../../db/schema';
import { containsPattern } from '../../db/like';

/** At most this many words of a search count (the rest are ignored): keeps the query small. */
const MAX_SEARCH_TERMS = 5;

/**
 * Every word of the search must appear (case-insensitively, as text: LIKE wildcards escaped) in
 * the client's first name, last name or the case reference, so "priya shah" finds Priya Shah. The
 * one search of cases: applications, loans and drawdowns lists use it (over `applications` only).
 *
 * Through the trigram indexes (docs/decisions.md, 374): the clients whose name matches are found
 * first by their own indexes, and `client_id = any(array(…))` then reads their applications by
 * `applications_client_id_idx` beside the case reference's trigram index (a bitmap OR), instead
 * of testing the pattern on every joined row.
 */
export function caseSearchCondition(search: string | undefined): SQL | undefined {
  const terms = (search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_TERMS);
  if (terms.length === 0) return undefined;
  return and(
    ...terms.map((term) => {
      const pattern = containsPattern(term);
      const named = sql`select ${clients.id} from ${clients} where ${or(ilike(clients.firstName, pattern), ilike(clients.lastName, pattern))}`;
      return or(sql`${applications.clientId} = any(array(${named}))`, ilike(applications.caseRef, pattern));
    }),
  );
}
