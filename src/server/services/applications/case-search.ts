import { and, ilike, or, sql, type SQL } from 'drizzle-orm';
import { applications, clients } from '../../db/schema';
import { containsPattern, lowerPrefixPattern } from '../../db/like';

/** At most this many words of a search count (the rest are ignored): keeps the query small. */
const MAX_SEARCH_TERMS = 5;

/** A trigram is three letters: a shorter word has none to look up in the trigram indexes. */
const SHORTEST_CONTAINED_WORD = 3;

/** The clients some names match, for `client_id = any(array(…))`. */
function clientsNamed(condition: SQL | undefined): SQL {
  return sql`${applications.clientId} = any(array(select ${clients.id} from ${clients} where ${condition}))`;
}

/**
 * One word of a search. Three letters or more: it appears anywhere (case-insensitively, as text:
 * LIKE wildcards escaped) in the client's first name, last name or the case reference, through the
 * trigram indexes (docs/decisions.md, 374): the clients whose name matches are found first by their
 * own indexes, and `client_id = any(array(…))` then reads their applications by
 * `applications_client_id_idx` beside the case reference's trigram index (a bitmap OR), instead of
 * testing the pattern on every joined row. One or two letters (docs/decisions.md, 622): a first or
 * last name starts with it, read from the names' `lower(…) text_pattern_ops` indexes; such a word
 * has no trigram, and "contains" would read every client (and a case reference's first letters are
 * the same for many cases), so it does not look at the reference.
 */
function wordCondition(term: string): SQL | undefined {
  if (term.length < SHORTEST_CONTAINED_WORD) {
    // A semi-join, not an array: beside a longer word its few applications are checked against
    // the client's row; alone, the planner reads the clients by the prefix indexes (or the newest
    // applications first for a page) instead of testing each row against thousands of ids.
    const prefix = lowerPrefixPattern(term);
    return sql`exists (select 1 from ${clients} where ${clients.id} = ${applications.clientId}
      and (lower(${clients.firstName}) like ${prefix} or lower(${clients.lastName}) like ${prefix}))`;
  }
  const pattern = containsPattern(term);
  return or(
    clientsNamed(or(ilike(clients.firstName, pattern), ilike(clients.lastName, pattern))),
    ilike(applications.caseRef, pattern),
  );
}

/**
 * Every word of the search must match the client's names or the case reference (a word of one or
 * two letters: the start of a name), so "priya shah" finds Priya Shah, and "pr" finds her as
 * the name is typed. The one search of cases: applications, loans and drawdowns lists use it (over
 * `applications` only).
 */
export function caseSearchCondition(search: string | undefined): SQL | undefined {
  const terms = (search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_TERMS);
  if (terms.length === 0) return undefined;
  return and(...terms.map(wordCondition));
}
