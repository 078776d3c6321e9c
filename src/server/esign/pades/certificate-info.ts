import { X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  AuthorityInfoAccessSyntax,
  Certificate,
  CRLDistributionPoints,
  id_ad_caIssuers,
  id_ad_ocsp,
  id_ce_cRLDistributionPoints,
  id_pe_authorityInfoAccess,
  type GeneralName,
} from '@peculiar/asn1-x509';
import { bytesOf, children, readTlv, slice } from './der';

/** What signing and validation data need from one certificate (DER). */
export interface CertificateInfo {
  der: Uint8Array;
  x509: X509Certificate;
  /** The issuer's and the subject's names and the serial number, as the exact DER elements. */
  issuerDer: Uint8Array;
  subjectDer: Uint8Array;
  serialDer: Uint8Array;
  /** Where the certificate says its revocation status and its issuer can be fetched (http only). */
  crlUrls: string[];
  ocspUrls: string[];
  caIssuerUrls: string[];
  /** Issued by itself (a root): nothing above it, and nobody to ask about it. */
  selfIssued: boolean;
}

const httpUrls = (names: readonly GeneralName[]) =>
  names.map((name) => name.uniformResourceIdentifier).filter((url): url is string => !!url && /^https?:\/\//i.test(url));

export function describeCertificate(der: Uint8Array): CertificateInfo {
  const x509 = new X509Certificate(der);
  // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version?, serial, signature, issuer, validity, subject, … } … }
  const tbs = children(der, readTlv(der))[0]!;
  const fields = children(der, tbs);
  const rest = fields[0]!.tag === 0xa0 ? fields.slice(1) : fields;
  const [serial, , issuer, , subject] = rest;
  if (!serial || !issuer || !subject) throw new Error('malformed certificate');

  const parsed = AsnConvert.parse(der, Certificate);
  const crlUrls: string[] = [];
  const ocspUrls: string[] = [];
  const caIssuerUrls: string[] = [];
  for (const extension of parsed.tbsCertificate.extensions ?? []) {
    const value = extension.extnValue.buffer;
    if (extension.extnID === id_ce_cRLDistributionPoints) {
      for (const point of AsnConvert.parse(value, CRLDistributionPoints))
        crlUrls.push(...httpUrls(point.distributionPoint?.fullName ?? []));
    } else if (extension.extnID === id_pe_authorityInfoAccess) {
      for (const access of AsnConvert.parse(value, AuthorityInfoAccessSyntax)) {
        const urls = httpUrls([access.accessLocation]);
        if (access.accessMethod === id_ad_ocsp) ocspUrls.push(...urls);
        if (access.accessMethod === id_ad_caIssuers) caIssuerUrls.push(...urls);
      }
    }
  }
  const issuerDer = slice(der, issuer);
  const subjectDer = slice(der, subject);
  return {
    der,
    x509,
    issuerDer,
    subjectDer,
    serialDer: slice(der, serial),
    crlUrls,
    ocspUrls,
    caIssuerUrls,
    selfIssued: Buffer.compare(issuerDer, subjectDer) === 0 && x509.checkIssued(x509),
  };
}

/** `issuer` issued `child`: names match and the signature checks out. */
export function issued(issuer: CertificateInfo, child: CertificateInfo): boolean {
  return Buffer.compare(child.issuerDer, issuer.subjectDer) === 0 && child.x509.verify(issuer.x509.publicKey);
}

/**
 * The certificate DER as the CMS library writes it again: a certificate that is not strict DER
 * would come out changed (and its signature broken), so it is refused where it is configured.
 */
export function assertDerRoundTrips(der: Uint8Array): void {
  const again = bytesOf(AsnConvert.serialize(AsnConvert.parse(der, Certificate)));
  if (Buffer.compare(again, der) !== 0)
    throw new Error(`certificate "${new X509Certificate(der).subject}" is not DER-encoded and cannot be carried in a signature`);
}
