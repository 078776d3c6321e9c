import type { Config } from '../config';
import type { Database } from '../db/connection';
import type { SealJob } from '../pdf/contract/seal';
import { runPdfJob } from '../pdf/render-in-worker';
import { signingDuration, timed } from '../ops/instruments';
import { certificatesIn, signerInfoParts, withSignatureTimeStamp } from './pades/cms';
import { lastSignature, signatureContents, signedBytes, withSignatureContents } from './pades/pdf-signature';
import { requestTimeStamp, TimeStampUnavailable, type TimeStamp, type TimeStampAuthority } from './pades/timestamp';
import { collectValidationData, noValidationData, type ValidationData } from './pades/validation-data';
import { signingKey } from './signing-key';

/** The PAdES baseline level a signed copy reached (ETSI EN 319 142-1, 6). */
export type PadesLevel = 'B-B' | 'B-T' | 'B-LT';

export interface SealedDocument {
  pdf: Uint8Array;
  level: PadesLevel;
  /** A time-stamping authority is configured but gave no token: a document time-stamp is owed. */
  timestampPending: boolean;
  /** What fell short, for the log (the authority's silence, validation data that could not be had). */
  problems: string[];
}

function authority(config: Config): TimeStampAuthority | undefined {
  const { tsa, fetchTimeoutMs } = config.esign;
  return tsa && { ...tsa, timeoutMs: fetchTimeoutMs };
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

/**
 * A first time-stamp, of nothing in particular, only to learn the authority's certificates before
 * anything is signed: their chain and revocation data go into the DSS inside the signed revision
 * (docs/decisions.md 478). It also finds a silent authority once, instead of once per document.
 */
async function probe(tsa: TimeStampAuthority, what: string): Promise<TimeStamp | string> {
  try {
    return await requestTimeStamp(tsa, new TextEncoder().encode(`probe: ${what} at ${new Date().toISOString()}`));
  } catch (error) {
    return describe(error);
  }
}

/** The level validation data allows once a time-stamp is in: LT when nothing is missing. */
function levelWith(validation: ValidationData, stamp: TimeStamp): PadesLevel {
  const carried = stamp.certificates.every((c) => validation.certificates.some((held) => same(held, c)));
  return validation.missing.length === 0 && carried ? 'B-LT' : 'B-T';
}

function validationProblems(validation: ValidationData): string[] {
  return [
    ...validation.missing.map((what) => `validation data not included: ${what}`),
    ...validation.revoked.map((who) => `the certificate of ${who} is reported revoked`),
  ];
}

/**
 * The signed copies of an envelope's documents (docs/decisions.md 476-479): the authority probed,
 * the validation data gathered (network, on this thread: nothing here computes much), the documents
 * laid out and signed B-B in the PDF worker with the DSS inside the signed revision, then each
 * signature value time-stamped (side by side) and the token put in the signature's /Contents,
 * which the signature does not cover. A document whose token does not come stays B-B and is
 * marked for a document time-stamp later; signing never fails for want of one.
 */
export async function sealWithPades(
  db: Database,
  config: Config,
  job: Omit<SealJob, 'key' | 'validation'>,
): Promise<SealedDocument[]> {
  // The signing's duration, for the metrics (docs/decisions.md 563).
  return timed(signingDuration, () => seal(db, config, job));
}

async function seal(db: Database, config: Config, job: Omit<SealJob, 'key' | 'validation'>): Promise<SealedDocument[]> {
  const key = await signingKey(db, config);
  const tsa = authority(config);
  const probed = tsa ? await probe(tsa, `envelope ${job.envelopeId}`) : undefined;
  const stamp = typeof probed === 'object' ? probed : undefined;
  const validation = await collectValidationData(
    [key.certificates[0]!, ...(stamp ? [stamp.certificates[0]!] : [])],
    [...key.certificates, ...(stamp?.certificates ?? [])],
    { timeoutMs: config.esign.fetchTimeoutMs },
  ).catch((error: unknown) => ({ ...noValidationData(), certificates: key.certificates, missing: [describe(error)] }));
  const problems = [...(typeof probed === 'string' ? [probed] : []), ...validationProblems(validation)];

  const signed = await runPdfJob({ kind: 'seal', ...job, key, validation }, { timeoutMs: config.timeouts.pdfTimeoutMs });
  if (!tsa) return signed.map((pdf) => ({ pdf, level: 'B-B', timestampPending: false, problems }));
  if (!stamp) return signed.map((pdf) => ({ pdf, level: 'B-B', timestampPending: true, problems }));

  return Promise.all(
    signed.map(async (pdf): Promise<SealedDocument> => {
      try {
        const span = lastSignature(pdf);
        const cms = signatureContents(pdf, span);
        const token = await requestTimeStamp(tsa, signerInfoParts(cms).signatureValue);
        const withToken = withSignatureContents(pdf, span, withSignatureTimeStamp(cms, token.token));
        return { pdf: withToken, level: levelWith(validation, token), timestampPending: false, problems };
      } catch (error) {
        if (!(error instanceof TimeStampUnavailable) && !/does not fit/.test(describe(error))) throw error;
        return { pdf, level: 'B-B', timestampPending: true, problems: [...problems, describe(error)] };
      }
    }),
  );
}

/**
 * A signed copy that was left B-B gets its time later (docs/decisions.md 479): an incremental
 * update with the DSS (the authority's chain and revocation data added) and a document time-stamp
 * (/ETSI.RFC3161) over the whole file, signature included. The earlier bytes stay as they were.
 * Throws TimeStampUnavailable while the authority still does not answer.
 */
export async function addDocumentTimeStamp(
  config: Config,
  pdf: Uint8Array,
): Promise<{ pdf: Uint8Array; level: PadesLevel; problems: string[] }> {
  const tsa = authority(config);
  if (!tsa) throw new TimeStampUnavailable('no time-stamping authority is configured');
  const probed = await probe(tsa, 'document time-stamp');
  if (typeof probed === 'string') throw new TimeStampUnavailable(probed);
  const signerCertificates = certificatesIn(signatureContents(pdf, lastSignature(pdf)));
  const validation = await collectValidationData(
    [signerCertificates[0]!, probed.certificates[0]!],
    [...signerCertificates, ...probed.certificates],
    { timeoutMs: config.esign.fetchTimeoutMs },
  );
  // Room for a token like the probe's, with margin for a longer chain or serial.
  const contentsBytes = probed.token.length * 2 + 4096;
  const [prepared] = await runPdfJob(
    { kind: 'documentTimeStamp', pdf, validation, contentsBytes },
    { timeoutMs: config.timeouts.pdfTimeoutMs },
  );
  const span = lastSignature(prepared!);
  const token = await requestTimeStamp(tsa, signedBytes(prepared!, span));
  return {
    pdf: withSignatureContents(prepared!, span, token.token),
    level: levelWith(validation, token),
    problems: validationProblems(validation),
  };
}
