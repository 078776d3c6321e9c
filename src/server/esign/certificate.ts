import { generateKeyPair, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import forge from 'node-forge';
import type { Config } from '../config';
import type { Database } from '../db/connection';
import { signingCertificates } from '../db/schema';

export interface SigningCertificate {
  p12: Uint8Array;
  passphrase: string;
}

/**
 * The passphrase of the generated certificate kept in the database. It protects nothing there (the
 * row and the passphrase live together: docs/decisions.md 284); a deployment that needs the key kept
 * apart configures ESIGN_P12_PATH and ESIGN_P12_PASSWORD.
 */
const STORED_PASSPHRASE = 'builtin-esign';
const CERTIFICATE_ROW = 1;

let configured: Promise<SigningCertificate> | undefined;

/**
 * The provider's signing certificate: the configured PKCS#12 file, or the self-signed one made at the
 * first signature and kept in the database, so every server process (and a restart) signs with the
 * same certificate (decision 284).
 */
export async function signingCertificate(db: Database, config: Pick<Config, 'esign' | 'provider'>): Promise<SigningCertificate> {
  const { p12Path, p12Password } = config.esign;
  if (p12Path) {
    configured ??= fs.promises.readFile(p12Path).then((bytes) => ({ p12: new Uint8Array(bytes), passphrase: p12Password }));
    return configured;
  }
  const stored = await readStored(db);
  if (stored) return stored;
  const p12 = await makeSelfSigned(config.provider.name);
  // Two processes may make one at once: the first row wins and both use it.
  await db
    .insert(signingCertificates)
    .values({ id: CERTIFICATE_ROW, p12: Buffer.from(p12).toString('base64') })
    .onConflictDoNothing();
  return (await readStored(db))!;
}

async function readStored(db: Database): Promise<SigningCertificate | undefined> {
  const [row] = await db.select().from(signingCertificates).where(eq(signingCertificates.id, CERTIFICATE_ROW));
  return row ? { p12: new Uint8Array(Buffer.from(row.p12, 'base64')), passphrase: STORED_PASSPHRASE } : undefined;
}

/** A 2048-bit RSA key (made by Node, off the event loop) in a self-signed certificate valid ten years. */
async function makeSelfSigned(providerName: string): Promise<Uint8Array> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 60 * 60 * 1000);
  const subject = [
    { name: 'commonName', value: `${providerName} electronic signature` },
    { name: 'organizationName', value: providerName },
    { name: 'countryName', value: 'GB' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], STORED_PASSPHRASE, { algorithm: '3des' });
  return new Uint8Array(Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'));
}
