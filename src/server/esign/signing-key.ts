import { createHash } from 'node:crypto';
import type { Config } from '../config';
import type { Database } from '../db/connection';
import { runPdfJob } from '../pdf/render-in-worker';
import { signingCertificate } from './certificate';
import type { KeyAndCertificates } from './pades/pkcs12';

/** Opened keys by their PKCS#12 file and passphrase: a few (a process signs with one). */
const opened = new Map<string, Promise<KeyAndCertificates>>();
const KEEP = 4;

/**
 * The provider's signing key and certificate chain (the configured PKCS#12 file or the stored
 * self-signed one: docs/decisions.md 284). Opening the file is slow pure JavaScript, so it runs in
 * the PDF worker, once per process for each file.
 */
export async function signingKey(db: Database, config: Config): Promise<KeyAndCertificates> {
  const { p12, passphrase } = await signingCertificate(db, config);
  const id = createHash('sha256').update(p12).update('\0').update(passphrase).digest('hex');
  let key = opened.get(id);
  if (!key) {
    key = runPdfJob({ kind: 'signingKey', p12, passphrase }, { timeoutMs: config.timeouts.pdfTimeoutMs }).then(
      ([privateKey, ...certificates]) => ({ privateKey: privateKey!, certificates }),
    );
    key.catch(() => opened.delete(id));
    opened.set(id, key);
    if (opened.size > KEEP) opened.delete(opened.keys().next().value!);
  }
  return key;
}
