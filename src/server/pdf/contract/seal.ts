import { PDFDocument, rgb } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import { SignPdf } from '@signpdf/signpdf';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { PdfWriter } from '../document';
import { embedDocumentFonts } from '../pdfa';
import { formatDateTime } from '../../../shared/rules/formats';

/** What the built-in provider signs (docs/decisions.md: 285): plain data a worker thread can be given. */
export interface SealJob {
  envelopeId: string;
  documents: { pdf: Uint8Array; title: string; sha256: string }[];
  signer: { name: string; email: string; address: string; device: string; signedAt: string };
  provider: { name: string; email: string };
  /** The provider's certificate and key (PKCS#12) and its passphrase. */
  p12: Uint8Array;
  passphrase: string;
}

/** Room kept for the PKCS#7 signature (bytes): a 2048- or 4096-bit key and a short chain fit. */
const SIGNATURE_LENGTH = 16_384;
const STAMP = { ink: rgb(0.04, 0.24, 0.57), fill: rgb(0.93, 0.96, 1) };

/**
 * Each document of the envelope: a visible signature block on every page, a certificate page at the
 * end (signer, time, address, device, every document's SHA-256 as prepared, the envelope id), then a
 * PAdES signature (ETSI.CAdES.detached, PKCS#7) over the whole file with the provider's certificate.
 */
export async function sealDocuments(job: SealJob): Promise<Uint8Array[]> {
  const signPdf = new SignPdf();
  const sealed: Uint8Array[] = [];
  for (const [index, document] of job.documents.entries()) {
    const doc = await PDFDocument.load(document.pdf);
    await stampPages(doc, job);
    await certificatePage(doc, job, index);
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
    // A P12Signer reads its certificate once (it consumes its buffer): one per document.
    const signer = new P12Signer(Buffer.from(job.p12), { passphrase: job.passphrase });
    sealed.push(new Uint8Array(await signPdf.sign(Buffer.from(prepared), signer, new Date(job.signer.signedAt))));
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
