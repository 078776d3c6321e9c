import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId, Worker } from 'node:worker_threads';
import { AppError } from '../errors/app-error';
import { projectRoot } from '../paths';
import { pdfJobDuration, timed } from '../ops/instruments';
import type { PdfData, PdfOptions } from './application-layout';
import type { ContractData } from './contract/contract-data';
import type { SealJob } from './contract/seal';
import type { DssContents } from '../esign/pades/dss';
import type { EmailPdfData } from './email-layout';
import type { ProviderIdentity } from '../../shared/rules/provider-identity';

/** One PDF laid out from its data: the application (its data and options), or one stored email. */
type SinglePdfJob =
  { data: PdfData; options: PdfOptions } | { email: EmailPdfData; options: { productName: string; provider: ProviderIdentity } };

/**
 * What a worker thread makes: the application's PDF, a stored email's, the contract set (one PDF per
 * document type, in order: docs/decisions.md 280), the signed copies of an envelope's documents
 * (decision 285), the signing key read from its PKCS#12 file (answered as DER: the key, then the
 * certificates), or a signed copy with a document time-stamp's placeholder appended (decision 479).
 */
export type PdfJob =
  | ({ kind: 'single' } & SinglePdfJob)
  | { kind: 'contract'; data: ContractData }
  | ({ kind: 'seal' } & SealJob)
  | { kind: 'signingKey'; p12: Uint8Array; passphrase: string }
  | { kind: 'documentTimeStamp'; pdf: Uint8Array; validation: DssContents; contentsBytes: number };

export type PdfWorkerAnswer = { pdfs: Uint8Array[] } | { error: string };

/** Used when the caller gives no limit (the server passes PDF_TIMEOUT_MS). */
const DEFAULT_PDF_TIMEOUT_MS = 30_000;

/** At most this many PDFs are laid out at once; the others wait (within their own time limit). */
const MAX_WORKERS = 2;

/** A worker may use this much heap: a PDF that needs more fails alone, never the server. */
const WORKER_HEAP_MB = 512;

let running = 0;
const waiting: (() => void)[] = [];

/** Workers alive now (tests check that a timed-out one is gone). */
export function pdfWorkersRunning(): number {
  return running;
}

/** Jobs waiting for a free worker now (the metrics: docs/decisions.md 563). */
export function pdfJobsWaiting(): number {
  return waiting.length;
}

/** The application's PDF or a stored email's, laid out in a worker thread (runPdfJob). */
export async function renderInWorker(job: SinglePdfJob, options: { timeoutMs?: number } = {}): Promise<Uint8Array> {
  const [pdf] = await runPdfJob({ kind: 'single', ...job }, options);
  return pdf!;
}

/**
 * Makes PDFs in a worker thread, so the request thread stays free whatever the answers hold.
 * Past the time limit (waiting included) the worker is terminated and the caller gets 503
 * `pdfTimeout`; a worker that fails (out of memory, a bug) gives 503 `pdfFailed`.
 */
export async function runPdfJob(job: PdfJob, options: { timeoutMs?: number } = {}): Promise<Uint8Array[]> {
  return timed(pdfJobDuration, () => runTimedPdfJob(job, options), { kind: job.kind });
}

async function runTimedPdfJob(job: PdfJob, options: { timeoutMs?: number }): Promise<Uint8Array[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PDF_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  if (running >= MAX_WORKERS) await waitForSlot(deadline);
  running++;
  try {
    return await runWorker(job, deadline - Date.now());
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function waitForSlot(deadline: number): Promise<void> {
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

function runWorker(job: PdfJob, timeoutMs: number): Promise<Uint8Array[]> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(job);
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new AppError(503, 'pdfTimeout'))), Math.max(0, timeoutMs));
    worker.once('message', (answer: PdfWorkerAnswer) =>
      settle(() =>
        'pdfs' in answer ? resolve(answer.pdfs) : reject(Object.assign(new AppError(503, 'pdfFailed'), { cause: answer.error })),
      ),
    );
    worker.once('error', (error) => settle(() => reject(Object.assign(new AppError(503, 'pdfFailed'), { cause: error }))));
    worker.once('exit', (code) =>
      settle(() => reject(Object.assign(new AppError(503, 'pdfFailed'), { cause: `worker exited with ${code}` }))),
    );
  });
}

/**
 * Compiled, the worker is the .js file beside this one. Run from TypeScript (tsx in development,
 * vitest), it is the same esbuild bundle `npm run build` makes, built once per process (bundledWorker).
 */
function startWorker(job: PdfJob): Worker {
  const options = { workerData: job, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  const fromTypeScript = import.meta.url.endsWith('.ts');
  if (!fromTypeScript) return new Worker(new URL('./pdf-worker.js', import.meta.url), options);
  return new Worker(bundledWorker(), options);
}

let bundled: URL | undefined;

/**
 * The worker's TypeScript bundled as scripts/build-server.mjs bundles it (the project's code in,
 * packages left to node_modules), written under node_modules/.cache where those imports resolve,
 * named by its content so processes running at once share one file. Each job starts a new thread
 * (a timed-out one is terminated): loading tsx's loader in every one cost a third more CPU per job
 * than the bundle, which the API tests paid hundreds of times (docs/decisions.md 616).
 */
function bundledWorker(): URL {
  if (bundled) return bundled;
  const require = createRequire(import.meta.url);
  const esbuild = require('esbuild') as typeof import('esbuild');
  const root = projectRoot();
  const [output] = esbuild.buildSync({
    absWorkingDir: root,
    entryPoints: [fileURLToPath(new URL('./pdf-worker.ts', import.meta.url))],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    write: false,
    logLevel: 'warning',
  }).outputFiles;
  const dir = path.join(root, 'node_modules', '.cache', 'portal-pdf-worker');
  const file = path.join(dir, `pdf-worker-${createHash('sha256').update(output!.contents).digest('hex').slice(0, 16)}.mjs`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    // Written aside and renamed: another process may be reading the same name.
    const partial = `${file}.${process.pid}.${threadId}`;
    fs.writeFileSync(partial, output!.contents);
    fs.renameSync(partial, file);
  }
  bundled = pathToFileURL(file);
  return bundled;
}
