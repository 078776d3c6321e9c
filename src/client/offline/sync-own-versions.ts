import Dexie from 'dexie';
import { db, readRows, resultRowSchema } from './db';

/**
 * Which version a versioned write is sent on: the one the user's own earlier write made, so their
 * second save of a record is not a conflict with their first (read by the sending, sync-send.ts).
 */

/**
 * The records (a versioned write's key) the user's kept results made a version of, read once per
 * pass and by key only (not each result, not once per write); the pass adds those its own answers
 * make. A write of any other record is sent on its own base without reading the results.
 */
export class KnownVersions {
  private keys: Set<string> | null = null;
  private loading: Promise<Set<string>> | null = null;

  constructor(private readonly userId: number) {}

  private load(): Promise<Set<string>> {
    this.loading ??= db.results
      .where('[userId+version.key]')
      .between([this.userId, Dexie.minKey], [this.userId, Dexie.maxKey])
      .keys()
      .then((keys) => {
        const loaded = new Set(keys.map((key) => String((key as unknown as [number, string])[1])));
        this.keys?.forEach((added) => loaded.add(added));
        this.keys = loaded;
        return loaded;
      });
    return this.loading;
  }

  async has(key: string): Promise<boolean> {
    return (this.keys !== null && this.keys.has(key)) || (await this.load()).has(key);
  }

  /** A version this pass made: its record's next write reads the results. */
  add(key: string): void {
    (this.keys ??= new Set()).add(key);
  }
}

/** The version a versioned write was sent on (what its result records as `from`). */
export interface SentVersion {
  key: string;
  from: number;
}

/**
 * A versioned write of this user based on a version their own earlier write has replaced (the same
 * record saved twice offline, or reopened while a save was still queued) would come back as a
 * conflict with their own work. It is sent on the version that write made; a write by anyone else
 * in between still answers 409.
 */
export async function ownVersion(userId: number, key: string, base: number, known: KnownVersions): Promise<number> {
  // No result of the user made a version of this record: nothing to read (decision 385).
  if (!(await known.has(key))) return base;
  const made = new Map<number, number>();
  const results = readRows(
    'results',
    resultRowSchema,
    await db.results.where('[userId+version.key]').equals([userId, key]).toArray(),
  );
  for (const result of results)
    if (result.version && result.version.key === key) made.set(result.version.from, result.version.to);
  let version = base;
  while (made.has(version) && made.get(version)! > version) version = made.get(version)!;
  return version;
}
