import { constants, createHash, randomBytes, verify, X509Certificate } from 'node:crypto';
import { ContentInfo, SignedData, id_signedData } from '@peculiar/asn1-cms';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { MessageImprint, PKIStatus, TimeStampReq, TimeStampResp, TSTInfo, id_ct_tstInfo } from '@peculiar/asn1-tsp';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { OID, certificatesIn, signerInfoParts } from './cms';
import { bufferOf, bytesOf, children, readTlv, slice } from './der';
import { readLimited } from './http-fetch';

/** An RFC 3161 time-stamping authority (ESIGN_TSA_URL and its settings). */
export interface TimeStampAuthority {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  timeoutMs: number;
}

/** A checked time-stamp token: its exact bytes, the authority's certificates in it, and its time. */
export interface TimeStamp {
  token: Uint8Array;
  certificates: Uint8Array[];
  genTime: Date;
}

/** The authority did not answer in time, refused, or answered something that is not a good token. */
export class TimeStampUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TimeStampUnavailable';
  }
}

const HASHES: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '1.3.14.3.2.26': 'sha1',
};
const TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
const MAX_REPLY_BYTES = 1024 * 1024;

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());
const asInteger = (bytes: ArrayBuffer | Uint8Array | undefined) =>
  bytes ? BigInt(`0x${Buffer.from(bytesOf(bytes)).toString('hex') || '0'}`) : undefined;

/**
 * A request's nonce: 8 random bytes read as a positive INTEGER in DER's one encoding, so its first
 * byte is neither 0 nor above 0x7f (63 random bits). A first byte of 0 followed by one below 0x80
 * is padding DER forbids, and an authority that reads strictly (OpenSSL's) refused the whole
 * request: 1 request in 256 came back "Bad request format".
 */
export function freshNonce(): Uint8Array {
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0]! % 0x7f) + 1;
  return nonce;
}

/**
 * Asks the authority for a time-stamp token over `data` (SHA-256 of it, with a nonce and the
 * authority's certificate asked for), and checks the answer before it is used: granted, the same
 * imprint and nonce, and signed by the certificate it carries for time-stamping.
 */
export async function requestTimeStamp(tsa: TimeStampAuthority, data: Uint8Array): Promise<TimeStamp> {
  const imprint = sha256(data);
  const nonce = freshNonce();
  const request = AsnConvert.serialize(
    new TimeStampReq({
      version: 1,
      messageImprint: new MessageImprint({
        hashAlgorithm: new AlgorithmIdentifier({ algorithm: OID.sha256 }),
        hashedMessage: new OctetString(imprint),
      }),
      nonce: bufferOf(nonce),
      certReq: true,
    }),
  );
  const headers: Record<string, string> = {
    'content-type': 'application/timestamp-query',
    accept: 'application/timestamp-reply',
  };
  if (tsa.username !== undefined)
    headers.authorization = `Basic ${Buffer.from(`${tsa.username}:${tsa.password ?? ''}`).toString('base64')}`;

  let reply: Uint8Array;
  try {
    const response = await fetch(tsa.url, {
      method: 'POST',
      headers,
      body: new Uint8Array(request),
      signal: AbortSignal.timeout(tsa.timeoutMs),
    });
    if (!response.ok) throw new TimeStampUnavailable(`the time-stamping authority answered HTTP ${response.status}`);
    reply = await readLimited(response, MAX_REPLY_BYTES);
  } catch (error) {
    if (error instanceof TimeStampUnavailable) throw error;
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new TimeStampUnavailable(
      timedOut
        ? `the time-stamping authority did not answer within ${tsa.timeoutMs} ms`
        : 'the time-stamping authority could not be reached',
      { cause: error },
    );
  }
  try {
    return checkReply(reply, imprint, nonce);
  } catch (error) {
    if (error instanceof TimeStampUnavailable) throw error;
    throw new TimeStampUnavailable('the time-stamping authority answered something that is not a time-stamp token', {
      cause: error,
    });
  }
}

function checkReply(reply: Uint8Array, imprint: Uint8Array, nonce: Uint8Array): TimeStamp {
  const parsed = AsnConvert.parse(reply, TimeStampResp);
  const status = parsed.status.status;
  if (status !== PKIStatus.granted && status !== PKIStatus.grantedWithMods) {
    const text = parsed.status.statusString?.join(' ') ?? '';
    throw new TimeStampUnavailable(`the time-stamping authority refused (status ${status}${text ? `: ${text}` : ''})`);
  }
  // The token exactly as the authority sent it: it is signed, so it is never encoded again.
  const token = children(reply, readTlv(reply))[1];
  if (!token) throw new TimeStampUnavailable('the time-stamping authority granted but sent no token');
  const tokenBytes = slice(reply, token);
  const checked = checkToken(tokenBytes);
  if (checked.imprintAlgorithm !== OID.sha256 || Buffer.compare(checked.imprint, imprint) !== 0)
    throw new TimeStampUnavailable('the token is for other data');
  if (checked.nonce !== asInteger(nonce)) throw new TimeStampUnavailable('the token answers another request');
  return { token: tokenBytes, certificates: checked.certificates, genTime: checked.genTime };
}

/**
 * Reads and checks a time-stamp token on its own: its TSTInfo, the message digest its signer
 * signed, and the signature by a certificate in it that is meant for time-stamping.
 */
export function checkToken(token: Uint8Array): {
  imprint: Uint8Array;
  imprintAlgorithm: string;
  nonce: bigint | undefined;
  genTime: Date;
  certificates: Uint8Array[];
} {
  const contentInfo = AsnConvert.parse(token, ContentInfo);
  if (contentInfo.contentType !== id_signedData) throw new Error('the token is not SignedData');
  const signedData = AsnConvert.parse(contentInfo.content, SignedData);
  const eContent = signedData.encapContentInfo.eContent?.single?.buffer;
  if (signedData.encapContentInfo.eContentType !== id_ct_tstInfo || !eContent) throw new Error('the token holds no TSTInfo');
  const tstInfo = AsnConvert.parse(eContent, TSTInfo);

  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo) throw new Error('the token has no signer');
  const hash = HASHES[signerInfo.digestAlgorithm.algorithm];
  if (!hash) throw new Error(`the token's digest algorithm ${signerInfo.digestAlgorithm.algorithm} is not supported`);
  const digestAttribute = signerInfo.signedAttrs?.find((a) => a.attrType === OID.messageDigest)?.attrValues[0];
  if (!digestAttribute) throw new Error('the token has no message digest');
  const signedDigest = bytesOf(AsnConvert.parse(digestAttribute, OctetString).buffer);
  if (Buffer.compare(signedDigest, createHash(hash).update(bytesOf(eContent)).digest()) !== 0)
    throw new Error('the token was changed after it was signed');

  const { signedAttributes, signatureValue } = signerInfoParts(token);
  const certificates = certificatesIn(token);
  const signer = certificates.find((der) => {
    const publicKey = new X509Certificate(der).publicKey;
    const signs = (options: object) => {
      try {
        return verify(hash, signedAttributes, { key: publicKey, ...options }, signatureValue);
      } catch {
        return false;
      }
    };
    return signs({}) || (publicKey.asymmetricKeyType === 'rsa' && signs({ padding: constants.RSA_PKCS1_PSS_PADDING }));
  });
  if (!signer) throw new Error('the token is not signed by a certificate it carries');
  if (!(new X509Certificate(signer).keyUsage ?? []).includes(TIME_STAMPING))
    throw new Error('the token is signed by a certificate that is not for time-stamping');

  return {
    imprint: bytesOf(tstInfo.messageImprint.hashedMessage.buffer),
    imprintAlgorithm: tstInfo.messageImprint.hashAlgorithm.algorithm,
    nonce: asInteger(tstInfo.nonce),
    genTime: tstInfo.genTime,
    certificates: [signer, ...certificates.filter((c) => c !== signer)],
  };
}
