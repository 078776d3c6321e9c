import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { assertDerRoundTrips } from './certificate-info';

/** A signing key read from a PKCS#12 file: the key (PKCS#8 DER) and the certificates, the signer's first. */
export interface KeyAndCertificates {
  privateKey: Uint8Array;
  certificates: Uint8Array[];
}

const der = (node: forge.asn1.Asn1) => new Uint8Array(Buffer.from(forge.asn1.toDer(node).getBytes(), 'binary'));

/**
 * Opens a PKCS#12 file (its key derivation is slow pure JavaScript: this runs in the PDF worker).
 * The signer's certificate is the one whose public key is the private key's; the others follow in
 * the file's order (its chain, as far as the file holds it).
 */
export function readPkcs12(p12: Uint8Array, passphrase: string): KeyAndCertificates {
  const parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(Buffer.from(p12).toString('binary')), passphrase);
  const { pkcs8ShroudedKeyBag, keyBag: plainKeyBag, certBag } = forge.pki.oids as Record<string, string>;
  const bags = (type: string): forge.pkcs12.Bag[] => parsed.getBags({ bagType: type })[type] ?? [];
  const keyBags = [...bags(pkcs8ShroudedKeyBag!), ...bags(plainKeyBag!)];
  const keyBag = keyBags[0];
  if (!keyBag) throw new Error('the PKCS#12 file holds no private key');
  // An RSA key forge decoded, or (EC and others) the PrivateKeyInfo forge left undecoded.
  const privateKeyInfo = keyBag.key
    ? forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(keyBag.key as forge.pki.rsa.PrivateKey))
    : keyBag.asn1;
  if (!privateKeyInfo) throw new Error('the PKCS#12 file holds no readable private key');
  const privateKey = der(privateKeyInfo);
  const publicKey = createPublicKey(createPrivateKey({ key: Buffer.from(privateKey), format: 'der', type: 'pkcs8' }));

  const certificates = bags(certBag!).map((bag) => {
    const node = bag.cert ? forge.pki.certificateToAsn1(bag.cert) : bag.asn1;
    if (!node) throw new Error('the PKCS#12 file holds a certificate that cannot be read');
    const bytes = der(node);
    assertDerRoundTrips(bytes);
    return bytes;
  });
  const signerIndex = certificates.findIndex((c) => new X509Certificate(c).publicKey.equals(publicKey));
  if (signerIndex < 0) throw new Error('the PKCS#12 file holds no certificate for its private key');
  const [signer] = certificates.splice(signerIndex, 1);
  return { privateKey, certificates: [signer!, ...certificates] };
}
