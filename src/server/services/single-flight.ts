/**
 * One run at a time per key in this process: a call made while a run for the same key is under way
 * waits for that run's result (or failure) instead of starting its own. Once it ends the key is
 * free again, so a later call runs anew (and finds, say, the work done).
 */
export function singleFlight<T>(): (key: string, run: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key, run) => {
    const current = running.get(key);
    if (current) return current;
    const started = run().finally(() => running.delete(key));
    running.set(key, started);
    return started;
  };
}
