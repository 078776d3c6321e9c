import { randomBytes } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFString,
  type PDFObject,
} from 'pdf-lib';
import { writeDss, type DssContents } from './dss';

/** Room for the ByteRange's three numbers, filled in once the update's length is known. */
const BYTE_RANGE_PLACEHOLDER = `/ByteRange [0 ${'9'.repeat(10)} ${'9'.repeat(10)} ${'9'.repeat(10)}]`;

const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
function bytesOfObject(object: PDFObject): Uint8Array {
  const out = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(out, 0);
  return out;
}

/** The first page's leaf and reference, walking /Pages without pdf-lib's page model (which may tidy it). */
function firstPage(doc: PDFDocument): { ref: PDFRef; dict: PDFDict } {
  let ref = doc.catalog.get(PDFName.of('Pages'));
  for (let depth = 0; depth < 32 && ref instanceof PDFRef; depth++) {
    const node = doc.context.lookup(ref, PDFDict);
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    if (!kids) return { ref, dict: node };
    ref = kids.get(0);
  }
  throw new Error('the PDF has no page');
}

/**
 * A document time-stamp (PAdES, ETSI EN 319 142-1 5.4.3; /SubFilter /ETSI.RFC3161) placeholder
 * appended as an incremental update: nothing before it is changed, so every earlier signature stays
 * valid. The update holds new versions of only what must name the new field — the DSS (with
 * `validation` added), the AcroForm's /Fields, the first page's /Annots (and the catalog only when
 * one of those is written directly in it) — and the new objects: the DSS's streams, the invisible
 * field and its signature dictionary. Its /Contents is `contentsBytes` zero bytes and its
 * /ByteRange covers everything else, to the end of the file; the token goes in afterwards.
 */
export async function appendDocumentTimeStampPlaceholder(
  pdf: Uint8Array,
  validation: DssContents,
  contentsBytes: number,
): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const { context, catalog } = doc;
  const rootRef = context.trailerInfo.Root;
  if (!(rootRef instanceof PDFRef)) throw new Error('the PDF has no catalog reference');
  const written = new Map<string, { ref: PDFRef; object: PDFObject }>();
  const write = (ref: PDFRef, object: PDFObject) => written.set(ref.toString(), { ref, object });
  const before = context.largestObjectNumber;

  // The DSS and its new streams.
  const dss = writeDss(doc, validation);
  write(dss.ref, dss.dict);
  let catalogChanged = dss.catalogChanged;
  for (const [ref, object] of context.enumerateIndirectObjects())
    if (ref.objectNumber > before && ref !== dss.ref) write(ref, object);

  // The signature dictionary, written by hand so its /ByteRange and /Contents can be filled in place.
  const signatureRef = context.nextRef();
  const signatureText =
    `<< /Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161 ${BYTE_RANGE_PLACEHOLDER} ` +
    `/Contents <${'0'.repeat(contentsBytes * 2)}> >>`;
  write(signatureRef, PDFInvalidObject.of(latin1(signatureText)));

  // The field (merged with its invisible widget) on the first page.
  const page = firstPage(doc);
  const acroFormEntry = catalog.get(PDFName.of('AcroForm'));
  const acroForm =
    acroFormEntry instanceof PDFRef
      ? context.lookup(acroFormEntry, PDFDict).clone(context)
      : acroFormEntry instanceof PDFDict
        ? acroFormEntry.clone(context)
        : context.obj({});
  const fields = context.obj([...(acroForm.lookupMaybe(PDFName.of('Fields'), PDFArray)?.asArray() ?? [])]);
  const widget = context.obj({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    T: PDFString.of(`Document time-stamp ${fields.size() + 1}`),
    V: signatureRef,
    Rect: [0, 0, 0, 0],
    F: 132, // print, locked
    P: page.ref,
  });
  const widgetRef = context.register(widget);
  write(widgetRef, widget);
  fields.push(widgetRef);
  acroForm.set(PDFName.of('Fields'), fields);
  const flags = acroForm.lookupMaybe(PDFName.of('SigFlags'), PDFNumber)?.asNumber() ?? 0;
  acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(flags | 3)); // signatures exist, append only
  if (acroFormEntry instanceof PDFRef) write(acroFormEntry, acroForm);
  else {
    catalog.set(PDFName.of('AcroForm'), acroForm);
    catalogChanged = true;
  }

  const annotsEntry = page.dict.get(PDFName.of('Annots'));
  if (annotsEntry instanceof PDFRef) {
    write(annotsEntry, context.obj([...context.lookup(annotsEntry, PDFArray).asArray(), widgetRef]));
  } else {
    const annots = context.obj([...(annotsEntry instanceof PDFArray ? annotsEntry.asArray() : []), widgetRef]);
    const pageDict = page.dict.clone(context);
    pageDict.set(PDFName.of('Annots'), annots);
    write(page.ref, pageDict);
  }
  if (catalogChanged) write(rootRef, catalog);

  return appendUpdate(pdf, doc, [...written.values()]);
}

/** Writes the objects, a classic cross-reference section and a trailer pointing back at the last one. */
function appendUpdate(pdf: Uint8Array, doc: PDFDocument, objects: { ref: PDFRef; object: PDFObject }[]): Uint8Array {
  const tail = Buffer.from(pdf.subarray(Math.max(0, pdf.length - 1024))).toString('latin1');
  const previous = [...tail.matchAll(/startxref\s+(\d+)/g)].at(-1)?.[1];
  if (!previous) throw new Error('the PDF has no startxref');

  const parts: Uint8Array[] = [latin1('\n')];
  let offset = pdf.length + 1;
  const offsets: { number: number; generation: number; offset: number }[] = [];
  for (const { ref, object } of objects.sort((a, b) => a.ref.objectNumber - b.ref.objectNumber)) {
    const chunk = [latin1(`${ref.objectNumber} ${ref.generationNumber} obj\n`), bytesOfObject(object), latin1('\nendobj\n')];
    offsets.push({ number: ref.objectNumber, generation: ref.generationNumber, offset });
    for (const c of chunk) {
      parts.push(c);
      offset += c.length;
    }
  }
  // One subsection per run of consecutive object numbers.
  let xref = 'xref\n';
  for (let i = 0; i < offsets.length;) {
    let j = i;
    while (j + 1 < offsets.length && offsets[j + 1]!.number === offsets[j]!.number + 1) j++;
    xref += `${offsets[i]!.number} ${j - i + 1}\n`;
    for (const entry of offsets.slice(i, j + 1))
      xref += `${String(entry.offset).padStart(10, '0')} ${String(entry.generation).padStart(5, '0')} n\r\n`;
    i = j + 1;
  }
  const { Root, Info, ID } = doc.context.trailerInfo;
  const firstId = ID instanceof PDFArray ? ID.get(0) : undefined;
  const idText = `[${firstId instanceof PDFHexString ? firstId.toString() : `<${randomBytes(16).toString('hex')}>`} <${randomBytes(16).toString('hex')}>]`;
  const trailer =
    `trailer\n<< /Size ${doc.context.largestObjectNumber + 1} /Root ${Root!.toString()}` +
    `${Info ? ` /Info ${Info.toString()}` : ''} /ID ${idText} /Prev ${previous} >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(latin1(xref + trailer));
  const out = new Uint8Array(Buffer.concat([pdf, ...parts]));
  return fillByteRange(out);
}

/** The appended signature's /ByteRange: everything but its /Contents, to the end of the file. */
function fillByteRange(pdf: Uint8Array): Uint8Array {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const at = text.lastIndexOf(BYTE_RANGE_PLACEHOLDER);
  const contentsStart = text.indexOf('<', text.indexOf('/Contents', at));
  const contentsEnd = text.indexOf('>', contentsStart) + 1;
  const range = `/ByteRange [0 ${contentsStart} ${contentsEnd} ${pdf.length - contentsEnd}]`;
  pdf.set(latin1(range.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' ')), at);
  return pdf;
}
