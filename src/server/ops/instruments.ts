import { Histogram } from 'prom-client';

/**
 * The measurements taken where the work happens, whatever app or registry reads them: each app
 * that serves /metrics adds them to its own registry (ops/metrics.ts). Kept in no registry here, so
 * one process that builds several apps (the tests) counts each once.
 */
const SECONDS_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Sealing the signed copies of an envelope: layout, PAdES signature and time-stamps (esign/pades-seal.ts). */
export const signingDuration = new Histogram({
  name: 'portal_signing_duration_seconds',
  help: 'Time to seal the signed copies of an envelope (PAdES signature, time-stamps included), by outcome.',
  labelNames: ['outcome'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [],
});

/** One job of the PDF worker threads, its wait for a free worker included (pdf/render-in-worker.ts). */
export const pdfJobDuration = new Histogram({
  name: 'portal_pdf_job_duration_seconds',
  help: 'Time of one PDF worker job, its wait for a free worker included, by kind and outcome.',
  labelNames: ['kind', 'outcome'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [],
});

/** Times the work and records it under its outcome (ok or failed), then answers as the work did. */
export async function timed<T>(histogram: Histogram<'outcome'>, work: () => Promise<T>): Promise<T>;
export async function timed<T, L extends string>(
  histogram: Histogram<L | 'outcome'>,
  work: () => Promise<T>,
  labels: Record<L, string>,
): Promise<T>;
export async function timed<T>(
  histogram: Histogram<string>,
  work: () => Promise<T>,
  labels: Record<string, string> = {},
): Promise<T> {
  const end = histogram.startTimer(labels);
  try {
    const result = await work();
    end({ outcome: 'ok' });
    return result;
  } catch (error) {
    end({ outcome: 'failed' });
    throw error;
  }
}
