import type { Readable } from 'node:stream';

/**
 * Where uploaded documents' bytes live. The database row (files) says what a file is; the storage
 * only keeps bytes under a key. A write either completes or leaves nothing behind.
 */
export interface FileStorage {
  /** Stores the bytes under the key. When the source fails (too large, not a PDF), nothing stays. */
  put(key: string, source: Readable | Uint8Array): Promise<void>;
  /** The bytes as a stream, or undefined when there is nothing under the key. */
  open(key: string): Promise<Readable | undefined>;
  /** Removes the key; removing a missing key is not an error. */
  remove(key: string): Promise<void>;
  /** Every key held (tests and housekeeping). */
  keys(): Promise<string[]>;
  /** Everything held, partial writes included, with when it was last written (housekeeping). */
  inventory(): Promise<StoredEntry[]>;
  /** Removes an entry the inventory listed: a key, or a partial write left by a dead process. */
  discard(name: string): Promise<void>;
}

export interface StoredEntry {
  /** A key, or the name of a partial write (`<key>.<random>.part`). */
  name: string;
  partial: boolean;
  modifiedAt: Date;
}
