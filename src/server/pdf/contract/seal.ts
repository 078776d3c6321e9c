import { createHash } from 'node:crypto';
import { PDFDocument, rgb } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { cadesDetachedSignature } from '../../esign/pades/cms';
import { writeDss, type DssContents } from '../../esign/pades/dss';
import type { KeyAndCertificates } from '../../esign/pades/pkcs12';
import { PdfWriter } from '../document';
import { embedDocumentFonts } from '../pdfa';
import { formatDateTime } from '../../../shared/rules/formats';

/** What the built-in provider signs (docs/decisions.md: 285): plain data a worker thread can be given. */
export interface SealJob {
  envelopeId: string;
  documents: { pdf: Uint8Array; title: string; sha256: string }[];
  signer: { name: string; email: string; address: string; device: string; signedAt: string };
  provider: { name: string; email: string };
  /** The provider's key and certificate chain. */
  key: KeyAndCertificates;
  /** The certificates and revocation data for the DSS, gathered before signing (docs/decisions.md 478). */
  validation: DssContents;
}

/**
 * Room kept for the CMS signature (bytes): a 2048- or 4096-bit key, a short chain, and the
 * time-stamp token (with the authority's chain) added after signing.
 */
const SIGNATURE_LENGTH = 16_384;

/** PAdES baseline B-B (docs/decisions.md 476): the CAdES signature over the byte ranges' SHA-256. */
class CadesSigner extends Signer {
  constructor(private readonly key: KeyAndCertificates) {
    super();
  }
  override async sign(pdf: Buffer): Promise<Buffer> {
    return Buffer.from(cadesDetachedSignature(new Uint8Array(createHash('sha256').update(pdf).digest()), this.key));
  }
}
const STAMP = { ink: rgb(0.04, 0.24, 0.57), fill: rgb(0.93, 0.96, 1) };

/**
 * Each document of the envelope: a visible signature block on every page, a certificate page at the
 * end (signer, time, address, device, every document's SHA-256 as prepared, the envelope id), the
 * DSS with the validation data, then a PAdES B-B signature (ETSI.CAdES.detached) over the whole
 * file with the provider's certificate. The time-stamp is added to each afterwards, outside the
 * worker (docs/decisions.md 476-478).
 */
export async function sealDocuments(job: SealJob): Promise<Uint8Array[]> {
  const signPdf = new SignPdf();
  const sealed: Uint8Array[] = [];
  for (const [index, document] of job.documents.entries()) {
    const doc = await PDFDocument.load(document.pdf);
    await stampPages(doc, job);
    await certificatePage(doc, job, index);
    // In the signed revision, so the signature covers it and still reaches the end of the file.
    writeDss(doc, job.validation);
    pdflibAddPlaceholder({
      pdfDoc: doc,
      pdfPage: doc.getPages().at(-1)!,
      reason: `Signed by ${job.signer.name} (envelope ${job.envelopeId})`,
      contactInfo: job.provider.email,
      name: job.provider.name,
      location: 'United Kingdom',
      signingTime: new Date(job.signer.signedAt),
      signatureLength: SIGNATURE_LENGTH,
      subFilter: SUBFILTER_ETSI_CADES_DETACHED,
      appName: job.provider.name,
    });
    // The placeholder must stay readable in the file (no object streams) for the signer to fill it.
    const prepared = await doc.save({ useObjectStreams: false });
    sealed.push(new Uint8Array(await signPdf.sign(Buffer.from(prepared), new CadesSigner(job.key))));
  }
  return sealed;
}

async function stampPages(doc: PDFDocument, job: SealJob): Promise<void> {
  // The shipped fonts, embedded, as every page of the file (PDF/A: docs/decisions.md 490).
  const { regular: font, bold } = await embedDocumentFonts(doc);
  const when = `${formatDateTime(job.signer.signedAt)} (UK time)`;
  const charset = new Set([...font.getCharacterSet(), ...bold.getCharacterSet()]);
  const clean = (text: string) => [...text].map((ch) => (charset.has(ch.codePointAt(0)!) ? ch : '?')).join('');
  for (const page of doc.getPages()) {
    const { width, height } = page.getSize();
    const box = { x: width - 50 - 260, y: height - 50, width: 260, height: 34 };
    page.drawRectangle({ ...box, color: STAMP.fill, borderColor: STAMP.ink, borderWidth: 0.8 });
    page.drawText(clean(`Signed electronically by ${job.signer.name}`).slice(0, 60), {
      x: box.x + 6,
      y: box.y + 22,
      size: 8,
      font: bold,
      color: STAMP.ink,
    });
    page.drawText(clean(`${when} - envelope ${job.envelopeId}`).slice(0, 80), {
      x: box.x + 6,
      y: box.y + 9,
      size: 6.5,
      font,
      color: STAMP.ink,
    });
  }
}

async function certificatePage(doc: PDFDocument, job: SealJob, index: number): Promise<void> {
  const w = await PdfWriter.appendTo(doc, `Certificate of electronic signature - envelope ${job.envelopeId}`);
  w.title('Certificate of electronic signature', `${job.documents[index]!.title} - envelope ${job.envelopeId}`);
  w.heading('Signature');
  w.row('Envelope id', job.envelopeId);
  w.row('Signed by', job.signer.name);
  w.row("Signer's email", job.signer.email);
  w.row('Signed at', `${formatDateTime(job.signer.signedAt)} (UK time), ${job.signer.signedAt} (UTC)`);
  w.row('IP address', job.signer.address);
  w.row('Device (user agent)', job.signer.device || 'not given');
  w.row('How the signer was identified', 'Signed in to the portal, and a one-time code sent to the email above');
  w.heading('Documents in this envelope (SHA-256 of each as prepared)');
  for (const document of job.documents) w.row(document.title, document.sha256);
  w.paragraph(
    `This document is sealed with ${job.provider.name}'s electronic signature certificate: any change to it after signing ` +
      'makes the signature invalid.',
  );
  w.drawFooters();
}
