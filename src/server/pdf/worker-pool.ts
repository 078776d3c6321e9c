import type { Worker } from 'node:worker_threads';
import { AppError } from '../errors/app-error';

/**
 * The PDF worker threads, kept between jobs (docs/decisions.md 191, 742). A thread's start (its
 * isolate, pdf-lib, fontkit and the fonts) cost about 600 ms of an ordinary application PDF that
 * takes 40 ms to lay out, so a thread that answered waits for the next job instead of ending. A
 * thread that ran past its time limit, failed or exited is terminated and never reused; one left
 * idle ends after IDLE_MS, so a server at rest holds none, and any ends after JOBS_PER_THREAD jobs.
 * An idle thread does not keep the process alive (unref), so a stopping server never waits for one.
 */

/** At most this many PDFs are laid out at once; the others wait (within their own time limit). */
const MAX_THREADS = 2;

/** An idle thread ends after this long: a burst of documents (a contract set, then its seal) reuses it. */
const IDLE_MS = 30_000;

/**
 * A thread ends after this many jobs. What a job leaves behind for good is small but real: pdf-lib
 * keeps every PDF name it has made (each subset's random tag among them) for the thread's life.
 * A start every few hundred jobs costs a few milliseconds a job.
 */
const JOBS_PER_THREAD = 250;

/**
 * A job that waited for a thread and has less than this left is answered 503 at once: run, it
 * would most likely be cut off, and a kept thread with it.
 */
const LEAST_TIME_FOR_A_JOB_MS = 100;

/** What a thread answers a job: its PDFs (or other bytes), or the error it caught. */
export type ThreadAnswer = { pdfs: Uint8Array[] } | { error: string };

interface IdleThread {
  worker: Worker;
  timer: NodeJS.Timeout;
}

const idle: IdleThread[] = [];
const jobsRun = new WeakMap<Worker, number>();
const waiting: (() => void)[] = [];
let running = 0;

/** Jobs running on a thread now (the metrics). */
export function pdfWorkersRunning(): number {
  return running;
}

/** Jobs waiting for a free thread now (the metrics: docs/decisions.md 563). */
export function pdfJobsWaiting(): number {
  return waiting.length;
}

/** Threads started and waiting for a job now. */
export function pdfThreadsIdle(): number {
  return idle.length;
}

/**
 * Runs one job on a thread (an idle one, or one `start` makes), at most MAX_THREADS at once.
 * Past the time limit (waiting included) the thread is terminated and the caller gets 503
 * `pdfTimeout`; a thread that fails (out of memory, a bug) gives 503 `pdfFailed`, as does a job
 * whose own code threw (its thread is kept: the error was caught there).
 */
export async function runOnPdfThread(start: () => Worker, job: unknown, timeoutMs: number): Promise<Uint8Array[]> {
  const deadline = Date.now() + timeoutMs;
  if (running >= MAX_THREADS) {
    await waitForThread(deadline);
    if (deadline - Date.now() < LEAST_TIME_FOR_A_JOB_MS) {
      waiting.shift()?.();
      throw new AppError(503, 'pdfTimeout');
    }
  }
  running++;
  try {
    return await runOn(idleThread() ?? started(start), job, deadline - Date.now());
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function waitForThread(deadline: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const go = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(
      () => {
        const i = waiting.indexOf(go);
        if (i >= 0) waiting.splice(i, 1);
        reject(new AppError(503, 'pdfTimeout'));
      },
      Math.max(0, deadline - Date.now()),
    );
    waiting.push(go);
  });
}

/** The thread that answered last (its code the most optimised), if one is idle. */
function idleThread(): Worker | undefined {
  const thread = idle.pop();
  if (!thread) return undefined;
  clearTimeout(thread.timer);
  thread.worker.ref();
  return thread.worker;
}

function started(start: () => Worker): Worker {
  const worker = start();
  // Whatever happens to a thread while it is idle ends it there: an 'error' with no listener
  // would be thrown on the request thread.
  worker.on('error', () => forget(worker));
  worker.on('exit', () => forget(worker));
  return worker;
}

function forget(worker: Worker): void {
  const i = idle.findIndex((thread) => thread.worker === worker);
  if (i < 0) return;
  clearTimeout(idle[i]!.timer);
  idle.splice(i, 1);
}

function keepIdle(worker: Worker): void {
  worker.unref();
  const timer = setTimeout(() => {
    forget(worker);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle.push({ worker, timer });
}

function runOn(worker: Worker, job: unknown, timeoutMs: number): Promise<Uint8Array[]> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (threadStillGood: boolean, outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      const jobs = (jobsRun.get(worker) ?? 0) + 1;
      jobsRun.set(worker, jobs);
      if (threadStillGood && jobs < JOBS_PER_THREAD) keepIdle(worker);
      else void worker.terminate();
      outcome();
    };
    const failed = (cause: unknown) => Object.assign(new AppError(503, 'pdfFailed'), { cause });
    const onMessage = (answer: ThreadAnswer) =>
      settle(true, () => ('pdfs' in answer ? resolve(answer.pdfs) : reject(failed(answer.error))));
    const onError = (error: Error) => settle(false, () => reject(failed(error)));
    const onExit = (code: number) => settle(false, () => reject(failed(`worker exited with ${code}`)));
    const timer = setTimeout(() => settle(false, () => reject(new AppError(503, 'pdfTimeout'))), Math.max(0, timeoutMs));
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    try {
      worker.postMessage(job);
    } catch (error) {
      // The job could not be copied to the thread (DataCloneError): the thread never saw it.
      settle(true, () => reject(failed(error)));
    }
  });
}
