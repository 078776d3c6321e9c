import type { AppStore } from '../session/session';
import { afterStore } from '../offline/load-store';
import { mutationsRegistered, setMutationsLoader } from '../offline/mutation-registry';

/**
 * The offline engine (Dexie, the outbox, every feature's writes) is loaded once the signed-in
 * screen has mounted, not before its first paint (docs/decisions.md (630)), and the store a task
 * before the rest (offline/load-store.ts). The device's reads a screen makes load the store on
 * demand too, and what reads the outbox for any page first waits for the writes to be registered.
 */
setMutationsLoader(() => afterStore(() => import('./offline-mutations')));

/** Starts the sync engine once its code is here (after every feature's writes are registered); returns the stop. */
export function startOfflineEngine(store: AppStore): () => void {
  let stop: (() => void) | null = null;
  let stopped = false;
  void Promise.all([afterStore(() => import('../offline/sync-engine')), mutationsRegistered()]).then(
    ([engine]) => {
      if (!stopped) stop = engine.startSync(store);
    },
    (error: unknown) => console.error('[offline] the sync engine could not be loaded', error),
  );
  return () => {
    stopped = true;
    stop?.();
  };
}

/** Settles once every feature's writes are registered (the list of what waits names them all). */
export function everyWriteRegistered(): Promise<unknown> {
  return mutationsRegistered();
}
