import { createHash, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { timestampSignedCopies } from '../../src/server/services/esign/timestamp-signed-copies';
import { DEMO_PASSWORD, startTestServer, type TestServer } from './harness';
import { buildSigningCase, prepareAndNotify, signAsClient } from './esign-fixtures';
import { buildUser, signInAs } from './factories';
import { startTrustServices, type TrustServices } from './local-trust-services';
import {
  cmsSignature,
  objectsDefined,
  opensslCmsPrint,
  opensslCmsVerify,
  opensslTsVerify,
  opensslTsVerifyDigest,
  pdfSignatures,
  pdfsig,
  pdfsigSignatures,
  qpdfCheck,
} from './signature-tools';

/*
 * The signed contracts as PAdES baseline signatures (docs/decisions.md 475-479), checked with the
 * tools a recipient would use: poppler's pdfsig, OpenSSL and qpdf. Trust services (a root CA, a
 * time-stamping authority, OCSP and a CRL) run on 127.0.0.1 (./local-trust-services.ts).
 */

let trust: TrustServices;
/** Each test signs five documents, and the tools read each several times, on a shared machine. */
const SIGNING_TEST_MS = 180_000;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const der = (pemFile: string) => new Uint8Array(new X509Certificate(fs.readFileSync(pemFile)).raw);
const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

/** A server whose signatures are time-stamped by the local authority. */
function startSigningServer(env: Record<string, string>, options: { seed?: boolean } = {}) {
  const { esign } = loadConfig({ NODE_ENV: 'test', ESIGN_TSA_URL: trust.tsaUrl, ESIGN_TSA_TIMEOUT_MS: '4000', ...env });
  return startTestServer({ esign }, options);
}

interface SignedCopy {
  id: number;
  type: string;
  padesLevel: string | null;
  timestampDue: boolean;
  signedSha256: string;
  pdf: Uint8Array;
}

async function signedCopies(server: TestServer, applicationId: number): Promise<SignedCopy[]> {
  const rows = await server.rows<{
    id: number;
    type: string;
    pades_level: string | null;
    timestamp_due_at: string | null;
    signed_sha256: string;
    key: string;
  }>(
    sql`select d.id, d.type, d.pades_level, d.timestamp_due_at, d.signed_sha256, f.key
        from envelope_documents d join envelopes e on e.id = d.envelope_id join files f on f.id = d.signed_file_id
        where e.application_id = ${applicationId} and e.status = 'signed' order by d.position`,
  );
  const copies: SignedCopy[] = [];
  for (const row of rows) {
    const chunks: Buffer[] = [];
    for await (const chunk of (await server.storage().open(row.key))!) chunks.push(chunk as Buffer);
    copies.push({
      id: row.id,
      type: row.type,
      padesLevel: row.pades_level,
      timestampDue: row.timestamp_due_at !== null,
      signedSha256: row.signed_sha256,
      pdf: new Uint8Array(Buffer.concat(chunks)),
    });
  }
  return copies;
}

/** The DSS's entries, each decoded: /Certs, /CRLs, /OCSPs. */
async function dssOf(pdf: Uint8Array): Promise<Record<'Certs' | 'CRLs' | 'OCSPs', Uint8Array[]>> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const dss = doc.catalog.lookup(PDFName.of('DSS'), PDFDict);
  const entries = (key: string) =>
    (dss.lookupMaybe(PDFName.of(key), PDFArray)?.asArray() ?? []).map(
      (ref) => new Uint8Array(decodePDFRawStream(doc.context.lookup(ref) as PDFRawStream).decode()),
    );
  return { Certs: entries('Certs'), CRLs: entries('CRLs'), OCSPs: entries('OCSPs') };
}

/**
 * What every signed copy must show with a time-stamping authority answering: one signature, valid,
 * over the whole file; signing-certificate-v2 and no CMS signing-time; the CMS verifies; its
 * signature-time-stamp token verifies against the authority's root and its imprint is the SHA-256
 * of the signature value; qpdf finds the file sound; one changed byte breaks the signature.
 */
function expectTimeStampedSignature(copy: SignedCopy) {
  const report = pdfsig(copy.pdf);
  expect(report.status, report.out).toBe(0);
  const signatures = pdfsigSignatures(report.out);
  expect(signatures, report.out).toHaveLength(1);
  expect(signatures[0]).toContain('Signature Type: ETSI.CAdES.detached');
  expect(signatures[0]).toContain('Total document signed');
  expect(signatures[0]).toContain('Signature Validation: Signature is Valid.');

  const [signature] = pdfSignatures(copy.pdf);
  expect(signature!.byteRange[2] + signature!.byteRange[3]).toBe(copy.pdf.length);
  const printed = opensslCmsPrint(signature!.der);
  expect(printed.status, printed.out).toBe(0);
  const signedAttributes = printed.out.split('signedAttrs:')[1]!.split('signatureAlgorithm:')[0]!;
  expect([...signedAttributes.matchAll(/object: (\S+)/g)].map((m) => m[1])).toEqual([
    'contentType',
    'messageDigest',
    'id-smime-aa-signingCertificateV2',
  ]);
  // (The authority's token, printed further on, carries a signing-time of its own: that is its business.)
  expect(signedAttributes).not.toMatch(/signingTime|1\.2\.840\.113549\.1\.9\.5\b/);
  expect(printed.out).toContain('id-smime-aa-timeStampToken');
  const verified = opensslCmsVerify(signature!.der, signature!.signed);
  expect(verified.out).toContain('CMS Verification successful');

  const { signatureValue, token } = cmsSignature(signature!.der);
  expect(token).toBeDefined();
  const tsVerified = opensslTsVerify(token!, signatureValue, trust.rootPem);
  expect(tsVerified.out, tsVerified.out).toContain('Verification: OK');
  // The imprint is the SHA-256 of the signature value, said outright.
  const byDigest = opensslTsVerifyDigest(token!, sha256(signatureValue), trust.rootPem);
  expect(byDigest.out, byDigest.out).toContain('Verification: OK');

  const checked = qpdfCheck(copy.pdf);
  expect(checked.status, checked.out).toBe(0);
  expect(checked.out).toContain('No syntax or stream encoding errors found');

  const tampered = new Uint8Array(copy.pdf);
  tampered[200]! ^= 1;
  const broken = pdfsig(tampered);
  expect(broken.out).toContain('Signature Validation:');
  expect(broken.out).not.toContain('Signature is Valid');
}

beforeAll(async () => {
  trust = await startTrustServices();
});

afterAll(async () => {
  await trust?.close();
});

describe('the seeded prepared envelope, with the stored self-signed certificate and a time-stamping authority', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startSigningServer({}, { seed: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'signs every copy PAdES B-LT: valid, whole, signing-certificate-v2 without signing-time, a token that verifies',
    async () => {
      const [prepared] = await server.rows<{ id: number; email: string }>(
        sql`select a.id, u.email from applications a join clients c on c.id = a.client_id join users u on u.id = c.user_id
          where a.status = 'esignPrepared'`,
      );
      // The seeded client was invited and has not joined: she joins with the demo password.
      await server.rows(
        sql`update users set status = 'active', password_hash = (select password_hash from users where email = 'client@demo.test')
          where email = ${prepared!.email}`,
      );
      const client = await server.signIn(prepared!.email, DEMO_PASSWORD);
      const admin = await server.signIn('admin@demo.test');
      const notified = await server.call({
        method: 'POST',
        url: '/api/docusign/notify',
        payload: { applicationId: prepared!.id },
        token: admin,
      });
      expect(notified.statusCode, notified.body).toBe(200);
      const before = trust.requests['POST /tsa'] ?? 0;
      const signed = await signAsClient(server, { applicationId: prepared!.id, client, clientEmail: prepared!.email });
      expect(signed.statusCode, signed.body).toBe(200);
      // One probe for the authority's certificates, then one token per document.
      expect((trust.requests['POST /tsa'] ?? 0) - before).toBe(6);

      const copies = await signedCopies(server, prepared!.id);
      expect(copies).toHaveLength(5);
      const tsaCertificate = der(trust.tsaPem);
      const root = der(trust.rootPem);
      for (const copy of copies) {
        expect(copy.padesLevel, copy.type).toBe('B-LT');
        expect(copy.timestampDue).toBe(false);
        expect(sha256(copy.pdf)).toBe(copy.signedSha256);
        expectTimeStampedSignature(copy);
        // The DSS holds the signer's certificate, the authority's chain and the OCSP answer its certificate names.
        const dss = await dssOf(copy.pdf);
        const [signerCertificate] = cmsSignature(pdfSignatures(copy.pdf)[0]!.der).certificates;
        expect(new X509Certificate(signerCertificate!).subject).toContain('electronic signature');
        expect(dss.Certs.some((c) => same(c, signerCertificate!))).toBe(true);
        expect(dss.Certs.some((c) => same(c, tsaCertificate))).toBe(true);
        expect(dss.Certs.some((c) => same(c, root))).toBe(true);
        expect(dss.OCSPs).toHaveLength(1);
      }
      const [event] = await server.rows<{ detail: { padesLevels: string[] } }>(
        sql`select e.detail from envelope_events e join envelopes v on v.id = e.envelope_id
          where v.application_id = ${prepared!.id} and e.type = 'signed'`,
      );
      expect(event!.detail.padesLevels).toEqual(['B-LT', 'B-LT', 'B-LT', 'B-LT', 'B-LT']);
    },
    SIGNING_TEST_MS,
  );

  it(
    'with the authority silent, signs at once B-B (valid and whole) and time-stamps each copy later without changing a byte of it',
    async () => {
      const admin = await server.signIn('admin@demo.test');
      const c = await buildSigningCase(server);
      await prepareAndNotify(server, c.applicationId, admin);

      trust.mode = 'silent';
      const asked = trust.requests['POST /tsa'] ?? 0;
      const signed = await signAsClient(server, c);
      expect(signed.statusCode, signed.body).toBe(200);
      // The probe waited ESIGN_TSA_TIMEOUT_MS once; no document then waited for a token of its own.
      expect((trust.requests['POST /tsa'] ?? 0) - asked).toBe(1);
      const unstamped = await signedCopies(server, c.applicationId);
      expect(unstamped).toHaveLength(5);
      for (const copy of unstamped) {
        expect(copy.padesLevel).toBe('B-B');
        expect(copy.timestampDue).toBe(true);
        const report = pdfsig(copy.pdf);
        expect(report.out).toContain('Total document signed');
        expect(report.out).toContain('Signature is Valid');
        const [signature] = pdfSignatures(copy.pdf);
        expect(cmsSignature(signature!.der).token).toBeUndefined();
        expect(opensslCmsPrint(signature!.der).out).toContain('id-smime-aa-signingCertificateV2');
      }

      // While the authority is still silent, a pass leaves every copy as it was and asks again later.
      const log: string[] = [];
      // With the error's own words: a pass that fails says why.
      const keep = (message: string, error?: unknown) => log.push(error === undefined ? message : `${message}: ${String(error)}`);
      const silentAsked = trust.requests['POST /tsa'] ?? 0;
      const silentPass = await timestampSignedCopies(server.db, server.config, server.storage(), keep);
      expect(silentPass).toEqual({ timestamped: 0, failed: 5 });
      expect(log).toHaveLength(5);
      expect(log[0]).toMatch(/not time-stamped; next try in 1 min/);
      // The pass stopped asking once the authority did not answer.
      expect((trust.requests['POST /tsa'] ?? 0) - silentAsked).toBe(1);
      const waiting = await server.rows<{ due_later: boolean; timestamp_attempts: number }>(
        sql`select timestamp_due_at > now() as due_later, timestamp_attempts from envelope_documents
          where id in (${sql.join(
            unstamped.map((u) => sql`${u.id}`),
            sql`, `,
          )})`,
      );
      expect(waiting.every((w) => w.due_later && w.timestamp_attempts === 1)).toBe(true);
      expect((await signedCopies(server, c.applicationId)).map((copy) => copy.signedSha256)).toEqual(
        unstamped.map((copy) => copy.signedSha256),
      );

      // The authority answers again and the copies' turn comes: each gets a document time-stamp.
      trust.mode = 'answer';
      await server.rows(sql`update envelope_documents set timestamp_due_at = now() where timestamp_due_at is not null`);
      // A generous deadline for the answers: the local authority runs openssl once per reply, one at a
      // time, and on a loaded machine a reply once took longer than the 4 s the silent pass waits.
      const patient = { ...server.config, esign: { ...server.config.esign, fetchTimeoutMs: 30_000 } };
      const pass = await timestampSignedCopies(server.db, patient, server.storage(), keep);
      expect(pass, [...log.slice(5), ...trust.refusals].join('\n')).toEqual({ timestamped: 5, failed: 0 });
      expect(trust.refusals).toEqual([]);
      const stamped = await signedCopies(server, c.applicationId);
      for (const [i, copy] of stamped.entries()) {
        const earlier = unstamped[i]!;
        expect(copy.padesLevel).toBe('B-LT');
        expect(copy.timestampDue).toBe(false);
        expect(sha256(copy.pdf)).toBe(copy.signedSha256);
        // Nothing before the update changed: the copy as signed is the new file's first part.
        expect(same(copy.pdf.subarray(0, earlier.pdf.length), earlier.pdf)).toBe(true);
        // The update writes new versions of only the DSS, the AcroForm and the first page (that name the field).
        const earlierObjects = new Set(objectsDefined(earlier.pdf));
        const rewritten = objectsDefined(copy.pdf, earlier.pdf.length).filter((n) => earlierObjects.has(n));
        const doc = await PDFDocument.load(earlier.pdf, { updateMetadata: false });
        const allowed = [doc.catalog.get(PDFName.of('DSS')), doc.catalog.get(PDFName.of('AcroForm')), doc.getPages()[0]!.ref].map(
          (ref) => Number(String(ref).split(' ')[0]),
        );
        expect(rewritten.sort()).toEqual(allowed.sort());

        const report = pdfsig(copy.pdf);
        expect(report.status, report.out).toBe(0);
        const [first, second] = pdfsigSignatures(report.out);
        // The signature is as valid as before; it now covers the file up to the update, by design.
        expect(first).toContain('Signature is Valid');
        expect(first).toContain('Not total document signed');
        expect(second).toBeDefined();
        const [signature, documentTimeStamp] = pdfSignatures(copy.pdf);
        expect(same(signature!.der, pdfSignatures(earlier.pdf)[0]!.der)).toBe(true);
        expect(documentTimeStamp!.byteRange[2] + documentTimeStamp!.byteRange[3]).toBe(copy.pdf.length);
        const verified = opensslTsVerify(documentTimeStamp!.der, documentTimeStamp!.signed, trust.rootPem);
        expect(verified.out, verified.out).toContain('Verification: OK');
        const checked = qpdfCheck(copy.pdf);
        expect(checked.status, checked.out).toBe(0);
        const dss = await dssOf(copy.pdf);
        expect(dss.Certs.some((cert) => same(cert, der(trust.tsaPem)))).toBe(true);
        expect(dss.OCSPs).toHaveLength(1);
      }
      const events = await server.rows<{ detail: { previousSha256: string; signedSha256: string } }>(
        sql`select e.detail from envelope_events e join envelopes v on v.id = e.envelope_id
          where v.application_id = ${c.applicationId} and e.type = 'timestamped' order by e.id`,
      );
      expect(events.map((e) => e.detail.previousSha256).sort()).toEqual(unstamped.map((u) => u.signedSha256).sort());
      // The download check compares against the new hashes.
      const docs = await server.call({
        method: 'GET',
        url: `/api/docusign/signedDocs?applicationId=${c.applicationId}`,
        token: c.client,
      });
      expect(docs.json().documents.every((d: { matches: boolean }) => d.matches)).toBe(true);
      // Nothing is owed any more: the next pass does nothing.
      expect(await timestampSignedCopies(server.db, server.config, server.storage(), () => {})).toEqual({
        timestamped: 0,
        failed: 0,
      });
    },
    SIGNING_TEST_MS,
  );
});

describe('ESIGN_P12: a certificate issued by a CA, and an authority that asks for credentials', () => {
  let server: TestServer;
  beforeAll(async () => {
    trust.credentials = { username: 'portal', password: 'tsa-secret' };
    server = await startSigningServer({
      ESIGN_P12_PATH: trust.signerP12,
      ESIGN_P12_PASSWORD: trust.signerP12Password,
      ESIGN_TSA_USERNAME: 'portal',
      ESIGN_TSA_PASSWORD: 'tsa-secret',
    });
  });
  afterAll(async () => {
    trust.credentials = undefined;
    await server?.close();
  });

  it(
    'signs with it B-LT; the DSS carries its chain (the root fetched where the certificate names it) and its CRL',
    async () => {
      const staff = await signInAs(server, await buildUser(server.db, { role: 'admin' }));
      const c = await buildSigningCase(server);
      await prepareAndNotify(server, c.applicationId, staff);
      const crlFetches = trust.requests['GET /root.crl'] ?? 0;
      const signed = await signAsClient(server, c);
      expect(signed.statusCode, signed.body).toBe(200);
      expect(trust.requests['GET /root.crl']).toBe(crlFetches + 1);

      const signer = der(trust.signerPem);
      const root = der(trust.rootPem);
      for (const copy of await signedCopies(server, c.applicationId)) {
        expect(copy.padesLevel).toBe('B-LT');
        expectTimeStampedSignature(copy);
        const [signature] = pdfSignatures(copy.pdf);
        expect(opensslCmsPrint(signature!.der).out).toContain('Provider Finance Ltd electronic seal');
        const dss = await dssOf(copy.pdf);
        expect(dss.Certs.some((cert) => same(cert, signer))).toBe(true);
        expect(dss.Certs.some((cert) => same(cert, root))).toBe(true);
        expect(dss.CRLs).toHaveLength(1);
        expect(dss.OCSPs).toHaveLength(1);
      }
    },
    SIGNING_TEST_MS,
  );
});
