import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Named (prepared) statements on PostgreSQL, for every call site at once (docs/decisions.md 613):
 * a statement with parameters whose text has been sent before gets a name derived from its text,
 * so each connection parses and analyses it once and afterwards only binds and executes it. The
 * texts are drizzle's, which keep values out of the text, so the hot paths (sessions, lists,
 * totals) repeat a few dozen texts. Bounded: at most MOST_NAMED texts are named in a process
 * (each connection keeps those it has used); texts seen once are not named, so a rare shape (a
 * list of ids of an unusual length) takes no place.
 */
export const MOST_NAMED = 300;
/** Texts seen once, waiting for a second sighting; emptied when this many pile up. */
const MOST_SEEN_ONCE = 2_000;

const named = new Map<string, string>();
const seenOnce = new Set<string>();
/** Texts whose result changed shape under a migration: sent unnamed from then on. */
const retired = new Set<string>();

/**
 * Statements that match text against a pattern given as a parameter (the searches: `like` for a
 * name's start, `ilike` for words, which the trigram indexes serve) stay unnamed: a prepared statement may be
 * given a generic plan made without the pattern, and only a plan that sees the pattern can use the
 * prefix and trigram indexes (docs/decisions.md 622), so these are planned with their values each
 * time.
 */
const MATCHES_A_PATTERN = /\b(i?like|(word_)?similarity)\b/i;

/** The name a statement's text is sent under, or undefined to send it unnamed. */
export function statementName(text: string): string | undefined {
  const name = named.get(text);
  if (name) return name;
  if (named.size >= MOST_NAMED || retired.has(text) || MATCHES_A_PATTERN.test(text)) return undefined;
  if (!seenOnce.has(text)) {
    if (seenOnce.size >= MOST_SEEN_ONCE) seenOnce.clear();
    seenOnce.add(text);
    return undefined;
  }
  seenOnce.delete(text);
  // 63 bytes is PostgreSQL's limit on a name; a hash of the text cannot name two texts.
  const fresh = `p_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
  named.set(text, fresh);
  return fresh;
}

type QueryArgs = [first: unknown, ...rest: unknown[]];

/** The arguments of client.query with a name given to a parameterised statement seen before. */
export function withStatementName(args: QueryArgs): QueryArgs {
  const [first, ...rest] = args;
  const values = Array.isArray(rest[0]) ? rest[0] : undefined;
  if (typeof first === 'string') {
    if (!values?.length) return args;
    const name = statementName(first);
    return name ? [{ name, text: first }, ...rest] : args;
  }
  if (!first || typeof first !== 'object') return args;
  const config = first as { text?: unknown; name?: unknown; values?: unknown; submit?: unknown };
  // A cursor or stream (submit), or a statement named by its caller, is left as it is.
  if (typeof config.text !== 'string' || config.name || typeof config.submit === 'function') return args;
  const parameters = values ?? (Array.isArray(config.values) ? config.values : undefined);
  if (!parameters?.length) return args;
  const name = statementName(config.text);
  return name ? [{ ...config, name }, ...rest] : args;
}

/**
 * A migration run by another process (a rolling deploy) can change what a prepared statement
 * answers; PostgreSQL then refuses it ("cached plan must not change result type") on every
 * connection that prepared it. Such a text is sent unnamed from then on: it fails once per
 * connection at most.
 */
function retireOnChangedResult(text: string, error: unknown): void {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code !== '0A000' || !message?.includes('cached plan must not change result type')) return;
  retired.add(text);
  named.delete(text);
}

/** Every connection the pool opens sends its statements through withStatementName. */
export function prepareStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: QueryArgs) => {
      const named = withStatementName(args);
      const result = query(...named);
      if (named !== args && result instanceof Promise) {
        const text = (named[0] as { text: string }).text;
        result.catch((error: unknown) => retireOnChangedResult(text, error));
      }
      return result;
    }) as typeof client.query;
  });
}
