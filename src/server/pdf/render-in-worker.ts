import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId, Worker } from 'node:worker_threads';
import { projectRoot } from '../paths';
import { pdfJobDuration, timed } from '../ops/instruments';
import { runOnPdfThread } from './worker-pool';
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

/** Used when the caller gives no limit (the server passes PDF_TIMEOUT_MS). */
const DEFAULT_PDF_TIMEOUT_MS = 30_000;

/** A worker may use this much heap: a PDF that needs more fails alone, never the server. */
const WORKER_HEAP_MB = 512;

/** The application's PDF or a stored email's, laid out in a worker thread (runPdfJob). */
export async function renderInWorker(job: SinglePdfJob, options: { timeoutMs?: number } = {}): Promise<Uint8Array> {
  const [pdf] = await runPdfJob({ kind: 'single', ...job }, options);
  return pdf!;
}

/**
 * Makes PDFs in a worker thread (pdf/worker-pool.ts), so the request thread stays free whatever
 * the answers hold. Past the time limit (waiting included) the caller gets 503 `pdfTimeout`; a
 * worker that fails (out of memory, a bug) gives 503 `pdfFailed`.
 */
export async function runPdfJob(job: PdfJob, options: { timeoutMs?: number } = {}): Promise<Uint8Array[]> {
  return timed(pdfJobDuration, () => runOnPdfThread(startWorker, job, options.timeoutMs ?? DEFAULT_PDF_TIMEOUT_MS), {
    kind: job.kind,
  });
}

/**
 * Compiled, the worker is the .js file beside this one. Run from TypeScript (tsx in development,
 * vitest), it is the same esbuild bundle `npm run build` makes, built once per process (bundledWorker).
 */
function startWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  const fromTypeScript = import.meta.url.endsWith('.ts');
  if (!fromTypeScript) return new Worker(new URL('./pdf-worker.js', import.meta.url), options);
  return new Worker(bundledWorker(), options);
}

let bundled: URL | undefined;

/**
 * The worker's TypeScript bundled as scripts/build-server.mjs bundles it (the project's code in,
 * packages left to node_modules), written under node_modules/.cache where those imports resolve,
 * named by its content so processes running at once share one file. Loading tsx's loader in every
 * thread cost a third more CPU per thread than the bundle (docs/decisions.md 616).
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
