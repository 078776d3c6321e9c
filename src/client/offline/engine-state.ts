/**
 * The sync engine's state in this tab, kept apart from the engine so that enqueue and
 * waitForResult can follow it without importing the engine (and its listeners).
 */
export type SyncPhase = 'idle' | 'syncing' | 'offline' | 'paused';

interface EngineState {
  /** This tab runs the engine (holds the lock, or no locks exist). */
  leading: boolean;
  phase: SyncPhase;
  /** A push is under way in this tab. */
  running: boolean;
  /** Incremented by every request for a push. */
  requested: number;
  /** The last request number a finished push had seen when it started its final round. */
  settled: number;
}

let state: EngineState = { leading: false, phase: 'idle', running: false, requested: 0, settled: 0 };
const listeners = new Set<() => void>();
let requestHandler: (() => void) | null = null;

export function engineState(): EngineState {
  return state;
}

export function updateEngineState(patch: Partial<EngineState>): void {
  state = { ...state, ...patch };
  listeners.forEach((listener) => listener());
}

export function subscribeEngineState(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The engine plugs its push in here while this tab leads. */
export function setSyncRequestHandler(handler: (() => void) | null): void {
  requestHandler = handler;
}

/** Asks for a push; returns the request's number (a push that settles at or after it has seen it). */
export function requestSync(): number {
  const number = state.requested + 1;
  state = { ...state, requested: number };
  requestHandler?.();
  return number;
}

export function resetEngineStateForTests(): void {
  state = { leading: false, phase: 'idle', running: false, requested: 0, settled: 0 };
  requestHandler = null;
}
