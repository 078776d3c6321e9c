import { createHash, verify } from 'node:crypto';
import {
  BasicOCSPResponse,
  CertID,
  OCSPRequest,
  OCSPResponse,
  OCSPResponseStatus,
  Request,
  TBSRequest,
  id_pkix_ocsp_basic,
} from '@peculiar/asn1-ocsp';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate, CertificateList } from '@peculiar/asn1-x509';
import { certificatesIn } from './cms';
import { describeCertificate, issued, type CertificateInfo } from './certificate-info';
import { bufferOf, bytesOf, children, NULL, readTlv, slice } from './der';
import { fetchBytes } from './http-fetch';

/**
 * What a validator needs years later, offline (PAdES B-LT, the DSS dictionary): the certificate
 * chains of the signer and of the time-stamping authority, and the revocation data their
 * certificates name (OCSP responses, CRLs), each as DER.
 */
export interface ValidationData {
  certificates: Uint8Array[];
  crls: Uint8Array[];
  ocsps: Uint8Array[];
  /** What could not be had (an issuer or a revocation source that did not answer): empty when complete. */
  missing: string[];
  /** Certificates their own CA reports revoked (subject names): signing should not go on. */
  revoked: string[];
}

export const noValidationData = (): ValidationData => ({ certificates: [], crls: [], ocsps: [], missing: [], revoked: [] });

const MAX_CHAIN = 8;
const MAX_CERTIFICATE_BYTES = 64 * 1024;
const MAX_REVOCATION_BYTES = 10 * 1024 * 1024;
const SIGNATURE_HASHES: Record<string, string> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};

const pemOrDer = (bytes: Uint8Array, label: string): Uint8Array => {
  const text = Buffer.from(bytes.subarray(0, 64)).toString('latin1');
  if (!text.includes(`-----BEGIN ${label}`)) return bytes;
  const body = Buffer.from(bytes).toString('latin1').split(`-----BEGIN ${label}-----`)[1]?.split('-----END')[0] ?? '';
  return new Uint8Array(Buffer.from(body.replace(/\s+/g, ''), 'base64'));
};

/**
 * Builds each leaf's chain from the certificates at hand, fetching a missing issuer where a
 * certificate names one (authority information access, caIssuers), and then each non-root
 * certificate's revocation data: OCSP where it names a responder, else its CRL distribution point.
 * Fetches run side by side, each within `timeoutMs`; what fails is listed in `missing`.
 */
export async function collectValidationData(
  leaves: readonly Uint8Array[],
  known: readonly Uint8Array[],
  options: { timeoutMs: number },
): Promise<ValidationData> {
  const pool = new Map<string, CertificateInfo>();
  const add = (der: Uint8Array) => {
    const key = Buffer.from(der).toString('base64');
    if (!pool.has(key)) pool.set(key, describeCertificate(der));
    return pool.get(key)!;
  };
  for (const der of known) add(der);
  const data = noValidationData();

  const chains = await Promise.all(
    leaves.map(async (leaf) => {
      const chain = [add(leaf)];
      for (let current = chain[0]!; !current.selfIssued && chain.length < MAX_CHAIN;) {
        let issuer = [...pool.values()].find((candidate) => issued(candidate, current));
        for (const url of issuer ? [] : current.caIssuerUrls) {
          const fetched = await fetchIssuer(url, options.timeoutMs).catch(() => []);
          for (const der of fetched) add(der);
          issuer = [...pool.values()].find((candidate) => issued(candidate, current));
          if (issuer) break;
        }
        if (!issuer) {
          data.missing.push(`the issuer of "${current.x509.subject}"`);
          break;
        }
        chain.push(issuer);
        current = issuer;
      }
      return chain;
    }),
  );

  const seen = new Set<string>();
  const pairs: { certificate: CertificateInfo; issuer: CertificateInfo }[] = [];
  for (const chain of chains)
    chain.forEach((certificate, i) => {
      const key = Buffer.from(certificate.der).toString('base64');
      if (seen.has(key)) return;
      seen.add(key);
      data.certificates.push(certificate.der);
      const issuer = chain[i + 1];
      if (issuer && !certificate.selfIssued) pairs.push({ certificate, issuer });
    });

  await Promise.all(
    pairs.map(async ({ certificate, issuer }) => {
      if (certificate.ocspUrls.length === 0 && certificate.crlUrls.length === 0) return;
      for (const url of certificate.ocspUrls) {
        const answer = await ocsp(url, certificate, issuer, options.timeoutMs).catch(() => undefined);
        if (!answer) continue;
        data.ocsps.push(answer.response);
        for (const der of answer.certificates)
          if (!data.certificates.some((c) => Buffer.compare(c, der) === 0)) data.certificates.push(der);
        if (answer.revoked) data.revoked.push(certificate.x509.subject);
        return;
      }
      for (const url of certificate.crlUrls) {
        const answer = await crl(url, certificate, issuer, options.timeoutMs).catch(() => undefined);
        if (!answer) continue;
        if (!data.crls.some((c) => Buffer.compare(c, answer.crl) === 0)) data.crls.push(answer.crl);
        if (answer.revoked) data.revoked.push(certificate.x509.subject);
        return;
      }
      data.missing.push(`revocation data for "${certificate.x509.subject}"`);
    }),
  );
  return data;
}

/** An issuer certificate from a caIssuers address: one certificate (DER or PEM) or a PKCS#7 bundle. */
async function fetchIssuer(url: string, timeoutMs: number): Promise<Uint8Array[]> {
  const bytes = pemOrDer(await fetchBytes(url, { timeoutMs, maxBytes: MAX_CERTIFICATE_BYTES }), 'CERTIFICATE');
  try {
    AsnConvert.parse(bytes, Certificate);
    return [bytes];
  } catch {
    return certificatesIn(bytes);
  }
}

/** The subjectPublicKey BIT STRING's bits (an OCSP issuerKeyHash is over these). */
function publicKeyBits(certificate: CertificateInfo): Uint8Array {
  const spki = new Uint8Array(certificate.x509.publicKey.export({ type: 'spki', format: 'der' }));
  const bitString = children(spki, readTlv(spki))[1]!;
  return spki.slice(bitString.contentStart + 1, bitString.contentEnd);
}

const serialOf = (certificate: CertificateInfo) => certificate.serialDer.slice(readTlv(certificate.serialDer).contentStart);
const sameSerial = (a: ArrayBuffer, b: Uint8Array) =>
  BigInt(`0x${Buffer.from(a).toString('hex') || '0'}`) === BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);

async function ocsp(
  url: string,
  certificate: CertificateInfo,
  issuer: CertificateInfo,
  timeoutMs: number,
): Promise<{ response: Uint8Array; certificates: Uint8Array[]; revoked: boolean }> {
  const sha1 = (bytes: Uint8Array) => new OctetString(createHash('sha1').update(bytes).digest());
  const certId = new CertID({
    hashAlgorithm: new AlgorithmIdentifier({ algorithm: '1.3.14.3.2.26', parameters: bufferOf(NULL) }),
    issuerNameHash: sha1(issuer.subjectDer),
    issuerKeyHash: sha1(publicKeyBits(issuer)),
    serialNumber: bufferOf(serialOf(certificate)),
  });
  const request = AsnConvert.serialize(
    new OCSPRequest({ tbsRequest: new TBSRequest({ requestList: [new Request({ reqCert: certId })] }) }),
  );
  const response = await fetchBytes(url, {
    timeoutMs,
    maxBytes: MAX_REVOCATION_BYTES,
    body: new Uint8Array(request),
    contentType: 'application/ocsp-request',
  });
  const parsed = AsnConvert.parse(response, OCSPResponse);
  if (parsed.responseStatus !== OCSPResponseStatus.successful || parsed.responseBytes?.responseType !== id_pkix_ocsp_basic)
    throw new Error(`OCSP responder ${url} answered status ${parsed.responseStatus}`);
  const basic = AsnConvert.parse(parsed.responseBytes.response.buffer, BasicOCSPResponse);
  const single = basic.tbsResponseData.responses.find((r) => sameSerial(r.certID.serialNumber, serialOf(certificate)));
  if (!single) throw new Error(`OCSP responder ${url} did not answer for the certificate asked about`);
  return {
    response,
    certificates: responderCertificates(bytesOf(parsed.responseBytes.response.buffer)),
    revoked: single.certStatus.revoked !== undefined,
  };
}

/** The certificates a BasicOCSPResponse carries ([0] EXPLICIT SEQUENCE OF Certificate), as sent. */
function responderCertificates(basic: Uint8Array): Uint8Array[] {
  const certs = children(basic, readTlv(basic)).find((f) => f.tag === 0xa0);
  const list = certs && children(basic, certs)[0];
  return list ? children(basic, list).map((c) => slice(basic, c)) : [];
}

async function crl(
  url: string,
  certificate: CertificateInfo,
  issuer: CertificateInfo,
  timeoutMs: number,
): Promise<{ crl: Uint8Array; revoked: boolean }> {
  const bytes = pemOrDer(await fetchBytes(url, { timeoutMs, maxBytes: MAX_REVOCATION_BYTES }), 'X509 CRL');
  const list = AsnConvert.parse(bytes, CertificateList);
  // Signed by the certificate's issuer: CertificateList ::= SEQUENCE { tbsCertList, signatureAlgorithm, signature }
  const [tbs, , signature] = children(bytes, readTlv(bytes));
  const hash = SIGNATURE_HASHES[list.signatureAlgorithm.algorithm];
  if (!tbs || !signature || !hash) throw new Error(`the CRL at ${url} cannot be checked`);
  const signed = verify(
    hash,
    bytes.subarray(tbs.start, tbs.end),
    issuer.x509.publicKey,
    bytes.subarray(signature.contentStart + 1, signature.contentEnd),
  );
  if (!signed) throw new Error(`the CRL at ${url} is not signed by the certificate's issuer`);
  const revoked = (list.tbsCertList.revokedCertificates ?? []).some((entry) =>
    sameSerial(entry.userCertificate, serialOf(certificate)),
  );
  return { crl: bytes, revoked };
}
