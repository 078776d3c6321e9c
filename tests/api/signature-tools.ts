/**
 * What the signature tests look at a signed PDF with: poppler's pdfsig, qpdf and OpenSSL (installed
 * by .ci/run), and the few byte positions those tools need handed to them. The portal's own PAdES
 * code is deliberately not used here, so these checks do not lean on what they check.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ContentInfo, SignedData } from '@peculiar/asn1-cms';
import { AsnConvert } from '@peculiar/asn1-schema';

export interface ToolRun {
  status: number | null;
  out: string;
}

/** Runs a tool in a fresh folder holding `files`; its output (stdout and stderr) and exit status. */
export function runTool(command: string, args: (dir: string) => string[], files: Record<string, Uint8Array> = {}): ToolRun {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signature-tools-'));
  try {
    for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), bytes);
    const run = spawnSync(command, args(dir), { cwd: dir, encoding: 'utf8' });
    if (run.error) throw run.error;
    return { status: run.status, out: `${run.stdout}${run.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const pdfsig = (pdf: Uint8Array) => runTool('pdfsig', () => ['doc.pdf'], { 'doc.pdf': pdf });
export const qpdfCheck = (pdf: Uint8Array) => runTool('qpdf', () => ['--check', 'doc.pdf'], { 'doc.pdf': pdf });

/** pdfsig's report split per signature ("Signature #1:" …). */
export function pdfsigSignatures(report: string): string[] {
  return report.split(/^Signature #\d+:$/m).slice(1);
}

export interface PdfSignature {
  byteRange: [number, number, number, number];
  /** The bytes the signature covers (its two ranges). */
  signed: Uint8Array;
  /** The DER in /Contents, the zero padding cut off by the DER length. */
  der: Uint8Array;
}

/** Every /ByteRange signature in the file, in file order. */
export function pdfSignatures(pdf: Uint8Array): PdfSignature[] {
  const text = Buffer.from(pdf).toString('latin1');
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((m) => {
    const byteRange = m.slice(1, 5).map(Number) as PdfSignature['byteRange'];
    const [a, b, c, d] = byteRange;
    const hex = Buffer.from(text.slice(b + 1, c - 1), 'hex');
    // SEQUENCE with a long-form length: 0x30 0x8n and n length bytes.
    const n = hex[1]! & 0x7f;
    const length = hex[1]! & 0x80 ? Number.parseInt(hex.subarray(2, 2 + n).toString('hex'), 16) + 2 + n : hex[1]! + 2;
    return {
      byteRange,
      signed: new Uint8Array(Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)])),
      der: new Uint8Array(hex.subarray(0, length)),
    };
  });
}

/** A CMS signature's value, its signature-time-stamp token (if it has one) and its certificates. */
export function cmsSignature(der: Uint8Array): {
  signatureValue: Uint8Array;
  token: Uint8Array | undefined;
  certificates: Uint8Array[];
} {
  const signedData = AsnConvert.parse(AsnConvert.parse(der, ContentInfo).content, SignedData);
  const signer = signedData.signerInfos[0]!;
  const token = signer.unsignedAttrs?.find((a) => a.attrType === '1.2.840.113549.1.9.16.2.14')?.attrValues[0];
  return {
    signatureValue: new Uint8Array(signer.signature.buffer),
    token: token ? new Uint8Array(token) : undefined,
    certificates: (signedData.certificates ?? []).flatMap((choice) =>
      choice.certificate ? [new Uint8Array(AsnConvert.serialize(choice.certificate))] : [],
    ),
  };
}

/** `openssl cms -cmsout -print` of a CMS signature. */
export const opensslCmsPrint = (der: Uint8Array) =>
  runTool('openssl', () => ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', 'sig.der'], { 'sig.der': der });

/** `openssl cms -verify` of a detached signature over `content` (the signer's chain not judged). */
export const opensslCmsVerify = (der: Uint8Array, content: Uint8Array) =>
  runTool(
    'openssl',
    () => [
      'cms',
      '-verify',
      '-inform',
      'DER',
      '-in',
      'sig.der',
      '-content',
      'data.bin',
      '-binary',
      '-noverify',
      '-out',
      '/dev/null',
    ],
    { 'sig.der': der, 'data.bin': content },
  );

/** `openssl ts -verify` of a time-stamp token over `data`, against a trusted root (PEM). */
export const opensslTsVerify = (token: Uint8Array, data: Uint8Array, rootPem: string) =>
  runTool('openssl', () => ['ts', '-verify', '-in', 'token.der', '-token_in', '-data', 'data.bin', '-CAfile', rootPem], {
    'token.der': token,
    'data.bin': data,
  });

/** `openssl ts -verify` of a token's message imprint against a digest (hex), against a trusted root. */
export const opensslTsVerifyDigest = (token: Uint8Array, digestHex: string, rootPem: string) =>
  runTool('openssl', () => ['ts', '-verify', '-in', 'token.der', '-token_in', '-digest', digestHex, '-CAfile', rootPem], {
    'token.der': token,
  });

/** The object numbers an incremental update (the bytes from `from` on) defines. */
export function objectsDefined(pdf: Uint8Array, from = 0): number[] {
  const text = Buffer.from(pdf.subarray(from)).toString('latin1');
  return [...text.matchAll(/(?:^|[\r\n])(\d+) (\d+) obj\b/g)].map((m) => Number(m[1]));
}
