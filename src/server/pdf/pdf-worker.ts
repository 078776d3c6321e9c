import { parentPort, workerData } from 'node:worker_threads';
import { layoutApplicationPdf } from './application-layout';
import { layoutEmailPdf } from './email-layout';
import type { PdfJob, PdfWorkerAnswer } from './render-in-worker';

/** The worker thread's side: lays out one PDF and answers with its bytes (transferred, not copied). */
async function run(job: PdfJob): Promise<void> {
  let answer: PdfWorkerAnswer;
  try {
    const pdf = 'email' in job ? await layoutEmailPdf(job.email, job.options) : await layoutApplicationPdf(job.data, job.options);
    answer = { pdf };
  } catch (error) {
    answer = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(answer, 'pdf' in answer ? [answer.pdf.buffer as ArrayBuffer] : []);
}

void run(workerData as PdfJob);
