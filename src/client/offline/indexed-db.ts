/**
 * Whether this browser (or test) has IndexedDB at all; without it the offline layer stays idle.
 * Apart from db.ts so that a screen can ask without loading Dexie (docs/decisions.md (630)).
 */
export function hasIndexedDb(): boolean {
  return typeof globalThis.indexedDB !== 'undefined';
}
