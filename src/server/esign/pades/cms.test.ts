import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, verify, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ContentInfo, SignedData } from '@peculiar/asn1-cms';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { afterAll, describe, expect, it } from 'vitest';
import { OID, cadesDetachedSignature, certificatesIn, signerInfoParts, withSignatureTimeStamp } from './cms';
import { encode, readTlv, sequence } from './der';
import type { KeyAndCertificates } from './pkcs12';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A self-signed key and certificate made by OpenSSL (RSA or EC P-256). */
function keyAndCertificate(kind: 'rsa' | 'ec'): KeyAndCertificates {
  const key = path.join(dir, `${kind}.key`);
  const cert = path.join(dir, `${kind}.pem`);
  const algorithm = kind === 'rsa' ? ['-newkey', 'rsa:2048'] : ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'];
  execFileSync(
    'openssl',
    ['req', '-x509', ...algorithm, '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${kind} seal`],
    {
      stdio: 'pipe',
    },
  );
  return {
    privateKey: new Uint8Array(createPrivateKey(fs.readFileSync(key)).export({ type: 'pkcs8', format: 'der' })),
    certificates: [new Uint8Array(new X509Certificate(fs.readFileSync(cert)).raw)],
  };
}

const digest = new Uint8Array(createHash('sha256').update('the byte ranges').digest());

describe('cadesDetachedSignature (PAdES B-B)', () => {
  for (const kind of ['rsa', 'ec'] as const)
    it(`signs exactly content-type, message-digest and signing-certificate-v2 (${kind})`, () => {
      const key = keyAndCertificate(kind);
      const cms = cadesDetachedSignature(digest, key);
      const signedData = AsnConvert.parse(AsnConvert.parse(cms, ContentInfo).content, SignedData);
      const signer = signedData.signerInfos[0]!;
      expect(signer.signedAttrs!.map((a) => a.attrType).sort()).toEqual(
        [OID.contentType, OID.messageDigest, OID.signingCertificateV2].sort(),
      );
      expect(signer.signedAttrs!.some((a) => a.attrType === OID.signingTime)).toBe(false);
      expect(signer.unsignedAttrs).toBeUndefined();
      expect(signedData.encapContentInfo.eContent).toBeUndefined();

      const value = (type: string) => signer.signedAttrs!.find((a) => a.attrType === type)!.attrValues[0]!;
      expect(new Uint8Array(AsnConvert.parse(value(OID.messageDigest), OctetString).buffer)).toEqual(digest);
      // ESSCertIDv2's certHash: the SHA-256 of the signer's certificate (the DER nests three SEQUENCEs deep).
      const ess = new Uint8Array(value(OID.signingCertificateV2));
      const certHash = readTlv(ess, readTlv(ess, readTlv(ess, readTlv(ess).contentStart).contentStart).contentStart);
      expect(Buffer.from(ess.subarray(certHash.contentStart, certHash.contentEnd)).toString('hex')).toBe(
        createHash('sha256').update(key.certificates[0]!).digest('hex'),
      );

      const { signedAttributes, signatureValue } = signerInfoParts(cms);
      expect(signedAttributes[0]).toBe(0x31);
      const publicKey = new X509Certificate(key.certificates[0]!).publicKey;
      expect(verify('sha256', signedAttributes, publicKey, signatureValue)).toBe(true);
      expect(certificatesIn(cms)).toEqual(key.certificates);
    });

  it('refuses to sign without a certificate', () => {
    expect(() => cadesDetachedSignature(digest, { privateKey: new Uint8Array(), certificates: [] })).toThrow(
      /no signing certificate/,
    );
  });
});

describe('withSignatureTimeStamp (PAdES B-T)', () => {
  it('adds the token as the one unsigned attribute and leaves every signed byte as it was', () => {
    const key = keyAndCertificate('rsa');
    const cms = cadesDetachedSignature(digest, key);
    const token = sequence(encode(0x06, Uint8Array.of(0x2a)), encode(0x04, new Uint8Array(300).fill(7)));
    const stamped = withSignatureTimeStamp(cms, token);
    expect(signerInfoParts(stamped)).toEqual(signerInfoParts(cms));
    expect(certificatesIn(stamped)).toEqual(certificatesIn(cms));
    const signer = AsnConvert.parse(AsnConvert.parse(stamped, ContentInfo).content, SignedData).signerInfos[0]!;
    expect(signer.unsignedAttrs).toHaveLength(1);
    expect(signer.unsignedAttrs![0]!.attrType).toBe(OID.signatureTimeStampToken);
    expect(new Uint8Array(signer.unsignedAttrs![0]!.attrValues[0]!)).toEqual(token);
    expect(() => withSignatureTimeStamp(stamped, token)).toThrow(/already has unsigned attributes/);
  });
});

describe('readTlv', () => {
  it('reads definite and BER indefinite lengths, and refuses truncated input', () => {
    const definite = sequence(encode(0x04, new Uint8Array(200)));
    expect(readTlv(definite)).toMatchObject({ tag: 0x30, start: 0, end: definite.length, contentStart: 3 });
    const indefinite = Uint8Array.of(0x30, 0x80, 0x04, 0x01, 0x09, 0x00, 0x00, 0xff);
    expect(readTlv(indefinite)).toMatchObject({ end: 7, contentStart: 2, contentEnd: 5 });
    expect(() => readTlv(definite.subarray(0, 50))).toThrow(/truncated/);
  });
});
