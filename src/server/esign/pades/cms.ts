import { createHash, createPrivateKey, sign } from 'node:crypto';
import {
  Attribute,
  CertificateChoices,
  CertificateSet,
  ContentInfo,
  DigestAlgorithmIdentifiers,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  SignedData,
  SignerIdentifier,
  SignerInfo,
  SignerInfos,
  id_data,
  id_signedData,
} from '@peculiar/asn1-cms';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate, Name } from '@peculiar/asn1-x509';
import { describeCertificate } from './certificate-info';
import type { KeyAndCertificates } from './pkcs12';
import { bufferOf, bytesOf, children, encode, NULL, octetString, oid, readTlv, sequence, setOf } from './der';

/** Object identifiers used by the PAdES baseline signature (RFC 5652, RFC 5035, RFC 3161, RFC 5754). */
export const OID = {
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;

/** The provider's signing key (PKCS#8 DER) and its certificate chain (DER, the signer's first). */
export type SigningKey = KeyAndCertificates;

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());

function attribute(type: string, valueDer: Uint8Array): { object: Attribute; der: Uint8Array } {
  const object = new Attribute({ attrType: type, attrValues: [bufferOf(valueDer)] });
  return { object, der: bytesOf(AsnConvert.serialize(object)) };
}

/**
 * ESS signing-certificate-v2 (RFC 5035): SigningCertificateV2 { certs { ESSCertIDv2 { certHash,
 * issuerSerial } } }. The hash algorithm is SHA-256, the field's DEFAULT, so DER leaves it out.
 */
function signingCertificateV2(certificateDer: Uint8Array): Uint8Array {
  const certificate = describeCertificate(certificateDer);
  const generalNames = sequence(encode(0xa4, certificate.issuerDer)); // [4] directoryName (EXPLICIT: Name is a CHOICE)
  const issuerSerial = sequence(generalNames, certificate.serialDer);
  return sequence(sequence(sequence(octetString(sha256(certificateDer)), issuerSerial)));
}

/**
 * A CAdES detached signature for PAdES baseline B-B (ETSI EN 319 142-1, 5.3 and 6.3): the signed
 * attributes are exactly content-type, message-digest and signing-certificate-v2, with no CMS
 * signing-time (the time is the signature dictionary's /M). The whole ContentInfo, DER.
 */
export function cadesDetachedSignature(contentDigest: Uint8Array, key: SigningKey): Uint8Array {
  const [signerDer, ...others] = key.certificates;
  if (!signerDer) throw new Error('no signing certificate');
  const signer = describeCertificate(signerDer);
  const privateKey = createPrivateKey({ key: Buffer.from(key.privateKey), format: 'der', type: 'pkcs8' });

  const attributes = [
    attribute(OID.contentType, oid(id_data)),
    attribute(OID.messageDigest, octetString(contentDigest)),
    attribute(OID.signingCertificateV2, signingCertificateV2(signerDer)),
  ].sort((a, b) => Buffer.compare(a.der, b.der));
  // What is signed is the attributes' DER as a SET OF (RFC 5652 5.4), in the order DER sorts them.
  const signedAttributes = setOf(attributes.map((a) => a.der));
  const signature = new Uint8Array(sign('sha256', signedAttributes, privateKey));
  const ec = privateKey.asymmetricKeyType === 'ec';
  if (!ec && privateKey.asymmetricKeyType !== 'rsa')
    throw new Error(`signing keys of type ${privateKey.asymmetricKeyType} are not supported (RSA or EC)`);

  const sha256Algorithm = new AlgorithmIdentifier({ algorithm: OID.sha256 });
  const signerInfo = new SignerInfo({
    version: 1,
    sid: new SignerIdentifier({
      issuerAndSerialNumber: new IssuerAndSerialNumber({
        issuer: AsnConvert.parse(signer.issuerDer, Name),
        serialNumber: bufferOf(signer.serialDer.slice(readTlv(signer.serialDer).contentStart)),
      }),
    }),
    digestAlgorithm: sha256Algorithm,
    signedAttrs: attributes.map((a) => a.object),
    signatureAlgorithm: ec
      ? new AlgorithmIdentifier({ algorithm: OID.ecdsaWithSha256 })
      : new AlgorithmIdentifier({ algorithm: OID.rsaEncryption, parameters: bufferOf(NULL) }),
    signature: new OctetString(signature),
  });
  const signedData = new SignedData({
    version: 1,
    digestAlgorithms: new DigestAlgorithmIdentifiers([sha256Algorithm]),
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: id_data }),
    certificates: new CertificateSet(
      [signerDer, ...others].map((der) => new CertificateChoices({ certificate: AsnConvert.parse(der, Certificate) })),
    ),
    signerInfos: new SignerInfos([signerInfo]),
  });
  const cms = bytesOf(
    AsnConvert.serialize(new ContentInfo({ contentType: id_signedData, content: AsnConvert.serialize(signedData) })),
  );
  // The library must have written the attributes exactly as they were signed.
  const written = signerInfoParts(cms).signedAttributes;
  if (Buffer.compare(written, signedAttributes) !== 0) throw new Error('the signed attributes changed when encoded');
  return cms;
}

/** The parts of the (single) SignerInfo of a CMS signature, as the exact bytes in it. */
export function signerInfoParts(cms: Uint8Array): {
  /** The signed attributes as signed: the [0] IMPLICIT SET re-tagged as a SET OF. */
  signedAttributes: Uint8Array;
  signatureValue: Uint8Array;
} {
  const signerInfo = signerInfoTlv(cms);
  const fields = children(cms, signerInfo);
  const signedAttrs = fields.find((f) => f.tag === 0xa0);
  const signature = fields.find((f) => f.tag === 0x04);
  if (!signedAttrs || !signature) throw new Error('not a signature with signed attributes');
  const signedAttributes = cms.slice(signedAttrs.start, signedAttrs.end);
  signedAttributes[0] = 0x31;
  return { signedAttributes, signatureValue: cms.slice(signature.contentStart, signature.contentEnd) };
}

function signerInfoTlv(cms: Uint8Array) {
  // ContentInfo { contentType, [0] { SignedData { version, digestAlgorithms, encapContentInfo, [0] certificates?, [1] crls?, signerInfos } } }
  const contentInfo = readTlv(cms);
  const explicit = children(cms, contentInfo)[1];
  if (!explicit || explicit.tag !== 0xa0) throw new Error('not a CMS ContentInfo');
  const signedData = children(cms, explicit)[0]!;
  const signerInfos = children(cms, signedData).at(-1)!;
  const signerInfo = children(cms, signerInfos)[0];
  if (signerInfos.tag !== 0x31 || !signerInfo) throw new Error('no SignerInfo');
  return signerInfo;
}

/**
 * The signature with a signature-time-stamp (RFC 3161 token over the signature value) as its one
 * unsigned attribute: PAdES B-T. The signed bytes are not touched: the token is spliced in after
 * the signature value and the lengths of the enclosing elements are written again.
 */
export function withSignatureTimeStamp(cms: Uint8Array, token: Uint8Array): Uint8Array {
  const contentInfo = readTlv(cms);
  const explicit = children(cms, contentInfo)[1]!;
  const signedData = children(cms, explicit)[0]!;
  const signerInfosTlv = children(cms, signedData).at(-1)!;
  const signerInfo = signerInfoTlv(cms);
  const fields = children(cms, signerInfo);
  if (fields.some((f) => f.tag === 0xa1)) throw new Error('the signature already has unsigned attributes');
  const unsigned = encode(0xa1, attribute(OID.signatureTimeStampToken, token).der);
  const part = (from: number, to: number) => cms.slice(from, to);
  const newSignerInfo = encode(0x30, part(signerInfo.contentStart, signerInfo.contentEnd), unsigned);
  const newSignerInfos = encode(
    0x31,
    part(signerInfosTlv.contentStart, signerInfo.start),
    newSignerInfo,
    part(signerInfo.end, signerInfosTlv.contentEnd),
  );
  const newSignedData = encode(0x30, part(signedData.contentStart, signerInfosTlv.start), newSignerInfos);
  return encode(0x30, part(contentInfo.contentStart, explicit.start), encode(0xa0, newSignedData));
}

/** The certificates a CMS SignedData carries (its [0] certificates), each as its exact DER. */
export function certificatesIn(cms: Uint8Array): Uint8Array[] {
  const explicit = children(cms, readTlv(cms))[1];
  if (!explicit) return [];
  const signedData = children(cms, explicit)[0]!;
  const set = children(cms, signedData).find((f) => f.tag === 0xa0);
  return set
    ? children(cms, set)
        .filter((c) => c.tag === 0x30)
        .map((c) => cms.slice(c.start, c.end))
    : [];
}
