import * as v from 'valibot';

/**
 * The last edits of a page that goes away, kept at once. A draft is written to IndexedDB right
 * after the keystroke's frame, but that write is asynchronous: an edit typed just before the tab
 * is closed (or before a phone discards a hidden page) can be cut off with the page. So on
 * `pagehide`, and whenever the page is hidden, every edit not yet written is also put in
 * localStorage, which writes synchronously. The next page to open a draft folds these edits back
 * into the drafts (drafts.ts, restoreRescuedDrafts) before any form reads one. A page shown again
 * takes its own back: it is alive, and its writes go on.
 */

/** An edit that was not yet written to its draft when the page went away. */
export interface RescuedEdit {
  userId: number;
  key: string;
  value: unknown;
  baseVersion?: number;
  /** What the page's values were built on (drafts.ts rebase): the stored draft merges field by field. */
  base?: unknown;
  /** When the page went away (ms since the epoch): a draft written later was written after it. */
  at: number;
}

const rescuedEditSchema = v.object({
  userId: v.pipe(v.number(), v.integer()),
  key: v.string(),
  value: v.unknown(),
  baseVersion: v.optional(v.pipe(v.number(), v.integer())),
  base: v.optional(v.unknown()),
  at: v.number(),
});

const PREFIX = 'portal:rescued-edit:';
const tabId = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** Each open draft's edit not yet written (null: nothing), by the hook that holds it. */
const sources = new Set<() => Omit<RescuedEdit, 'at'> | null>();
/** The localStorage keys this page wrote, taken back when it is shown again. */
const written = new Set<string>();

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage can be refused outright (a privacy setting): the drafts' own writes still run.
    return null;
  }
}

/** A draft hook tells what it has not yet written; answers the unregister. */
export function rescueUnwrittenEdit(source: () => Omit<RescuedEdit, 'at'> | null): () => void {
  sources.add(source);
  return () => void sources.delete(source);
}

/** The page is going away (or hidden): every edit not yet written is kept in localStorage now. */
export function keepUnwrittenEdits(at = Date.now()): void {
  const store = storage();
  if (!store) return;
  takeBackKeptEdits();
  let index = 0;
  for (const source of sources) {
    const edit = source();
    if (!edit) continue;
    const name = `${PREFIX}${tabId}:${index++}`;
    try {
      store.setItem(name, JSON.stringify({ ...edit, at } satisfies RescuedEdit));
      written.add(name);
    } catch {
      // Full or refused: the asynchronous write that pagehide starts may still land.
    }
  }
}

/** This page is shown again: it holds its edits itself, so what it kept is taken back. */
export function takeBackKeptEdits(): void {
  const store = storage();
  for (const name of written) store?.removeItem(name);
  written.clear();
}

/** Whether a page that went away kept edits (read synchronously, so a page with none waits for nothing). */
export function hasRescuedEdits(): boolean {
  const store = storage();
  if (!store) return false;
  for (let index = 0; index < store.length; index++) if (store.key(index)?.startsWith(PREFIX)) return true;
  return false;
}

/**
 * Hands each kept edit of a page that went away to `restore`, and removes it once restored; an
 * entry that is not a kept edit (an older version's, a damaged one) is removed unread. An edit
 * whose restore fails stays for the next page.
 */
export async function restoreRescuedEdits(restore: (edit: RescuedEdit) => Promise<void>): Promise<void> {
  const store = storage();
  if (!store) return;
  const names: string[] = [];
  for (let index = 0; index < store.length; index++) {
    const name = store.key(index);
    if (name?.startsWith(PREFIX) && !written.has(name)) names.push(name);
  }
  // Oldest first: a later page's edit of the same draft is folded in after an earlier one's.
  const edits = names
    .map((name) => ({ name, edit: parseEdit(store.getItem(name)) }))
    .sort((a, b) => (a.edit?.at ?? 0) - (b.edit?.at ?? 0));
  for (const { name, edit } of edits) {
    if (edit) await restore(edit);
    store.removeItem(name);
  }
}

function parseEdit(text: string | null): RescuedEdit | null {
  if (text === null) return null;
  try {
    const parsed = v.safeParse(rescuedEditSchema, JSON.parse(text));
    return parsed.success ? (parsed.output as RescuedEdit) : null;
  } catch {
    return null;
  }
}
