/**
 * A job every server process runs in the background: the mail and push senders, the reminders,
 * the housekeeping, the time-stamping of signed copies. Each is safe to run in several processes at
 * once (the senders and reminders claim their rows, the housekeeping only deletes what no one needs),
 * so this only has to keep one process's runs apart.
 */
export interface RepeatingJob {
  /** Named in the log when a run fails. */
  name: string;
  everyMs: number;
  /** One run. `stopped()` says the process is stopping: a run with more to do ends early. */
  run: (stopped: () => boolean) => Promise<unknown>;
  log: (message: string, error?: unknown) => void;
}

/**
 * Runs the job at once, then every `everyMs`, never two runs at a time (a run still going when the
 * next is due lets it pass), a failure logged and the next run tried as usual. The timer does not
 * keep the process alive. Returns the stop: no run starts after it.
 */
export function repeatInBackground({ name, everyMs, run, log }: RepeatingJob): () => void {
  let stopped = false;
  let running = false;
  const isStopped = () => stopped;
  async function tick(): Promise<void> {
    if (running || stopped) return;
    running = true;
    try {
      await run(isStopped);
    } catch (error) {
      log(`${name} failed`, error);
    } finally {
      running = false;
    }
  }
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  void tick();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
