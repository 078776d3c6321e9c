import { and, ilike, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { applications } from '../../db/schema';
import { containsPattern, startsWithPattern } from '../../db/like';

/** At most this many words of a search count (the rest are ignored): keeps the query small. */
const MAX_SEARCH_TERMS = 5;

/** A trigram is three letters: a shorter word has none to look up in the trigram indexes. */
const SHORTEST_CONTAINED_WORD = 3;

/**
 * The part of a word the trigram indexes are asked for: its longest run of letters and digits,
 * when the word has more than one run (as "ben-0123" or "mary-jane") and that run has a trigram.
 * PostgreSQL's trigrams split a word at anything else, and give each run's edges trigrams of their
 * own: a case reference's prefix ("ben") and the edge before its number are in nearly every
 * reference, and reading those in the index cost more than the rest of the search (1.2 ms of 1.4
 * at 100,000 cases, against 0.05 ms for the number alone; docs/decisions.md, 750). The whole word
 * is still checked on each row the run finds, so the same rows match.
 */
export function indexedRunOf(term: string): string | undefined {
  const runs = term.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (runs.length < 2) return undefined;
  const longest = runs.reduce((a, b) => (b.length > a.length ? b : a));
  return longest.length >= SHORTEST_CONTAINED_WORD ? longest : undefined;
}

/** The names or the case reference contain the text (read through their trigram indexes). */
function containedInCase(text: string): SQL | undefined {
  const pattern = containsPattern(text);
  return or(sql`${applications.clientNames} like lower(${pattern})`, ilike(applications.caseRef, pattern));
}

/**
 * One word of a search, matched against the application's own row: the client's names kept on it
 * (`client_names`, lower-cased "first last") and the case reference, each through its trigram
 * index (docs/decisions.md, 374, 721), so a word is a bitmap over `applications` alone. Three
 * letters or more: it appears anywhere (case-insensitively, as text: LIKE wildcards escaped) in
 * the names or the reference; a word of several runs is looked up by its longest run and then
 * checked whole (indexedRunOf), the check written so that no index is asked for it. One or two
 * letters (docs/decisions.md, 622): a name starts with it (the text's start, or after a space);
 * the trigram index keeps the start of each word, so this too is read by index; it does not look
 * at the reference, whose first letters are the same for many cases.
 */
function wordCondition(term: string): SQL | undefined {
  if (term.length < SHORTEST_CONTAINED_WORD) {
    // Lower-cased by the database, as the names were: the two always agree on what lower case is.
    const prefix = startsWithPattern(term);
    return sql`(${applications.clientNames} like lower(${prefix}) or ${applications.clientNames} like lower(${`% ${prefix}`}))`;
  }
  const run = indexedRunOf(term);
  if (!run) return containedInCase(term);
  const pattern = containsPattern(term);
  // One arm of the OR reads no index (lower() of the reference has none), so the planner
  // filters the run's rows with it rather than reading every trigram of the word.
  const whole = sql`(${applications.clientNames} like lower(${pattern}) or lower(${applications.caseRef}) like lower(${pattern}))`;
  return and(containedInCase(run), whole);
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

/**
 * The case search for the records of a case (loans, drawdowns): `applicationId` (the case's id on
 * those rows) is one of the matching applications'. The matches are found first, by the trigram
 * indexes of `applications` alone, then the records by their own index on the case's id; joined
 * instead, the planner walked every loan beside its application and tested the words on each
 * (12 ms for a loans total at 20,000 loans, against 3 ms; docs/decisions.md, 721).
 */
export function caseSearchOfRecords(applicationId: SQLWrapper, search: string | undefined): SQL | undefined {
  const condition = caseSearchCondition(search);
  return condition && sql`${applicationId} = any(array(select ${applications.id} from ${applications} where ${condition}))`;
}
