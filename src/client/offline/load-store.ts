/**
 * How the device's offline code arrives on a signed-in screen: after its first paint (decision 630),
 * and in two steps, each a task of its own (decision 740). First the store (Dexie and the tables),
 * then, once the main thread has had a turn, what works on it: the sync engine, every feature's
 * writes, the header's status, the list's device reads. Run in one go, the two were the first
 * screen's longest task on a slow phone, and a tap made meanwhile waited for all of it.
 *
 * Everything that loads offline code on its own (offline-engine.ts, the header's status, cache.ts,
 * device-query.ts) goes through here, so nothing pulls the second step in before the first is done.
 */

type StoreModule = typeof import('./db');

export type DeviceStore = StoreModule & { liveQuery: typeof import('dexie').liveQuery };

let store: Promise<DeviceStore> | undefined;

/** The main thread's turn: what is queued (a tap, a frame) runs before the next step's code. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The device's store (Dexie and the tables), loaded once; settles a task after it has run. */
export function loadStore(): Promise<DeviceStore> {
  store ??= Promise.all([import('./db'), import('dexie')]).then(
    async ([tables, dexie]) => {
      await nextTask();
      return { ...tables, liveQuery: dexie.liveQuery };
    },
    (error: unknown) => {
      // A chunk that did not arrive (the connection dropped) is asked for again next time.
      store = undefined;
      throw error;
    },
  );
  return store;
}

/** Code that works on the store, loaded once the store has run and the main thread has had its turn. */
export function afterStore<T>(load: () => Promise<T>): Promise<T> {
  return loadStore().then(load);
}
