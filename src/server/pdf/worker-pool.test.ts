import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pdfJobsWaiting, pdfThreadsIdle, pdfWorkersRunning, runOnPdfThread } from './worker-pool';

/** A stand-in for the PDF worker: answers its thread's id, or hangs, fails or crashes when asked. */
const script = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', (job) => {
  if (job === 'hang') return;
  if (job === 'fail') return parentPort.postMessage({ error: 'the layout threw' });
  if (job === 'crash') throw new Error('crashed');
  if (job === 'exit soon') setTimeout(() => process.exit(0), 20);
  parentPort.postMessage({ pdfs: [new Uint8Array(new Uint32Array([threadId]).buffer)] });
});
`;
const started: Worker[] = [];
const start = () => {
  const worker = new Worker(script, { eval: true });
  started.push(worker);
  return worker;
};
const threadOf = async (job = 'id', timeoutMs = 10_000) => {
  const [answer] = await runOnPdfThread(start, job, timeoutMs);
  return new Uint32Array(answer!.buffer)[0];
};
const alive = (worker: Worker) => worker.threadId !== -1;

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(started.splice(0).map((worker) => worker.terminate()));
  await vi.waitFor(() => expect(pdfThreadsIdle()).toBe(0));
});

describe('the PDF threads', () => {
  it('reuse a thread that answered: one start for several jobs', async () => {
    const first = await threadOf();
    expect(await threadOf()).toBe(first);
    expect(await threadOf()).toBe(first);
    expect(started).toHaveLength(1);
    expect(pdfThreadsIdle()).toBe(1);
    expect(pdfWorkersRunning()).toBe(0);
  });

  it('run at most two jobs at once; the third waits for a thread that answered', async () => {
    const jobs = [threadOf(), threadOf(), threadOf()];
    expect(pdfWorkersRunning()).toBe(2);
    expect(pdfJobsWaiting()).toBe(1);
    const threads = await Promise.all(jobs);
    expect(started).toHaveLength(2);
    expect(new Set(threads).size).toBe(2);
    expect(pdfJobsWaiting()).toBe(0);
  });

  it('terminate a thread past its time limit and never give it another job', async () => {
    const first = await threadOf();
    await expect(threadOf('hang', 200)).rejects.toMatchObject({ statusCode: 503, code: 'pdfTimeout' });
    await vi.waitFor(() => expect(alive(started[0]!)).toBe(false));
    expect(pdfThreadsIdle()).toBe(0);
    expect(await threadOf()).not.toBe(first);
  });

  it('keep a thread whose job failed in its own code, and end one that crashed', async () => {
    const first = await threadOf();
    await expect(threadOf('fail')).rejects.toMatchObject({ code: 'pdfFailed', cause: 'the layout threw' });
    expect(await threadOf()).toBe(first);
    await expect(threadOf('crash')).rejects.toMatchObject({ code: 'pdfFailed' });
    expect(pdfThreadsIdle()).toBe(0);
    expect(await threadOf()).not.toBe(first);
  });

  it('refuse a job that cannot be copied to a thread, and keep the thread', async () => {
    const first = await threadOf();
    await expect(runOnPdfThread(start, { layout: () => 'a function' }, 10_000)).rejects.toMatchObject({ code: 'pdfFailed' });
    expect(pdfWorkersRunning()).toBe(0);
    expect(await threadOf()).toBe(first);
  });

  it('answer 503 at once a job that waited and has too little time left, without taking a thread', async () => {
    const busy = [threadOf('hang', 100), threadOf('hang', 100)];
    const late = threadOf('id', 150);
    await expect(late).rejects.toMatchObject({ code: 'pdfTimeout' });
    await Promise.allSettled(busy);
    expect(started).toHaveLength(2);
    expect(pdfJobsWaiting()).toBe(0);
    expect(pdfWorkersRunning()).toBe(0);
  });

  it('end a thread after 250 jobs', async () => {
    const first = await threadOf();
    for (let job = 2; job <= 250; job++) expect(await threadOf()).toBe(first);
    expect(pdfThreadsIdle()).toBe(0);
    expect(await threadOf()).not.toBe(first);
  });

  it('forget a thread that ends while idle', async () => {
    await threadOf('exit soon');
    expect(pdfThreadsIdle()).toBe(1);
    await vi.waitFor(() => expect(pdfThreadsIdle()).toBe(0));
  });

  it('never keep a process alive with an idle thread', () => {
    const pool = fileURLToPath(new URL('./worker-pool.ts', import.meta.url));
    const program = `
      import { Worker } from 'node:worker_threads';
      import { pdfThreadsIdle, runOnPdfThread } from ${JSON.stringify(pool)};
      const start = () => new Worker(${JSON.stringify(script)}, { eval: true, execArgv: [] });
      await runOnPdfThread(start, 'id', 10_000);
      console.log('idle threads:', pdfThreadsIdle());
    `;
    const began = Date.now();
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
      encoding: 'utf8',
      timeout: 25_000,
    });
    expect(child.stdout.trim(), child.stderr).toBe('idle threads: 1');
    expect(child.status).toBe(0);
    // It would stay until the idle thread ends, 30 s on.
    expect(Date.now() - began).toBeLessThan(20_000);
  });

  it('end an idle thread after 30 seconds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await threadOf();
    expect(pdfThreadsIdle()).toBe(1);
    vi.advanceTimersByTime(29_000);
    expect(pdfThreadsIdle()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(pdfThreadsIdle()).toBe(0);
    vi.useRealTimers();
    await vi.waitFor(() => expect(alive(started[0]!)).toBe(false));
  });
});
