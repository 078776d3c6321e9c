import { parentPort } from 'node:worker_threads';
import { layoutApplicationPdf } from './application-layout';
import { layoutContractSet } from './contract/contract-layout';
import { sealDocuments } from './contract/seal';
import { layoutEmailPdf } from './email-layout';
import { appendDocumentTimeStampPlaceholder } from '../esign/pades/incremental-update';
import { readPkcs12 } from '../esign/pades/pkcs12';
import type { PdfJob } from './render-in-worker';
import type { ThreadAnswer } from './worker-pool';

async function make(job: PdfJob): Promise<Uint8Array[]> {
  switch (job.kind) {
    case 'single':
      return ['email' in job ? await layoutEmailPdf(job.email, job.options) : await layoutApplicationPdf(job.data, job.options)];
    case 'contract':
      return layoutContractSet(job.data);
    case 'seal':
      return sealDocuments(job);
    case 'signingKey': {
      const { privateKey, certificates } = readPkcs12(job.p12, job.passphrase);
      return [privateKey, ...certificates];
    }
    case 'documentTimeStamp':
      return [await appendDocumentTimeStampPlaceholder(job.pdf, job.validation, job.contentsBytes)];
  }
}

/** The worker thread's side: makes a job's PDFs and answers with their bytes (transferred, not copied). */
async function run(job: PdfJob): Promise<void> {
  let answer: ThreadAnswer;
  try {
    // Each in a buffer of its own (a Node Buffer may be a slice of a shared pool), so each transfers alone.
    answer = { pdfs: (await make(job)).map((pdf) => new Uint8Array(pdf)) };
  } catch (error) {
    answer = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  const transfer = 'pdfs' in answer ? answer.pdfs.map((pdf) => pdf.buffer as ArrayBuffer) : [];
  parentPort!.postMessage(answer, transfer);
}

// One job at a time: the pool sends the next only after this one's answer (pdf/worker-pool.ts).
parentPort!.on('message', (job: PdfJob) => void run(job));
