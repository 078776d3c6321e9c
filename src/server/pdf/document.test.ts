import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { PdfWriter } from './document';

async function setup() {
  const writer = await PdfWriter.create({ title: 't', author: 'a', footer: 'f' });
  const font = await (await PDFDocument.create()).embedFont(StandardFonts.HelveticaBold);
  return { writer, font };
}

describe('PdfWriter.wrap', () => {
  it('breaks a 100,000-character word into lines that fit, in linear time', async () => {
    const { writer, font } = await setup();
    const word = 'W'.repeat(50_000) + 'i'.repeat(50_000);
    const started = performance.now();
    const lines = writer.wrap(word, font, 10, 250);
    const elapsed = performance.now() - started;
    expect(lines.join('')).toBe(word);
    for (const line of lines) expect(font.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(250);
    // Cubic before: minutes; a linear walk takes milliseconds even on a loaded machine.
    expect(elapsed).toBeLessThan(1_000);
  });

  it('keeps words whole where they fit and puts at least one character on every line', async () => {
    const { writer, font } = await setup();
    expect(writer.wrap('alpha beta gamma', font, 10, 1_000)).toEqual(['alpha beta gamma']);
    expect(writer.wrap('alpha beta', font, 10, 30)).toEqual(['alpha', 'beta']);
    expect(writer.wrap('WW', font, 10, 1)).toEqual(['W', 'W']);
    expect(writer.wrap('one\ntwo', font, 10, 1_000)).toEqual(['one', 'two']);
  });
});

/** The text each page's number form draws, read back from the file (its glyphs, as hex). */
function pageNumberForms(doc: PDFDocument): string[] {
  return doc.getPages().map((page) => {
    const resources = page.node.Resources()!;
    const form = resources.lookup(PDFName.of('XObject'), PDFDict).lookup(PDFName.of('PageNumber')) as PDFRawStream;
    return Buffer.from(form.getContents()).toString('latin1');
  });
}

/** The XMP packet of a file, as text. */
function xmp(doc: PDFDocument): string {
  const stream = doc.catalog.lookup(PDFName.of('Metadata')) as PDFRawStream;
  return Buffer.from(stream.getContents()).toString('utf8');
}

describe('PdfWriter: PDF/A and page numbers', () => {
  it('embeds its fonts, declares PDF/A-2b with metadata that agrees, and has an sRGB output intent', async () => {
    const writer = await PdfWriter.create({ title: 'Credit <Agreement> & co', author: 'Provider Ltd', footer: 'f', legal: 'l' });
    writer.paragraph('Text “quoted”, £100, 漢字.');
    const doc = await PDFDocument.load(await writer.finish(), { updateMetadata: false });
    const packet = xmp(doc);
    expect(packet).toContain('<pdfaid:part>2</pdfaid:part>');
    expect(packet).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    expect(packet).toContain('<rdf:li xml:lang="x-default">Credit &lt;Agreement&gt; &amp; co</rdf:li>');
    expect(doc.getTitle()).toBe('Credit <Agreement> & co');
    expect(doc.getProducer()).toBe('Provider Ltd');
    expect(packet).toContain(
      `<xmp:ModifyDate>${doc.getModificationDate()!.toISOString().replace('.000Z', 'Z')}</xmp:ModifyDate>`,
    );
    const intent = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
    expect(intent.get(PDFName.of('OutputConditionIdentifier'))?.toString()).toBe('(sRGB IEC61966-2.1)');
    const fonts = doc.context
      .enumerateIndirectObjects()
      .map(([, object]) => object)
      .filter(
        (object): object is PDFDict =>
          object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('FontDescriptor'),
      );
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      expect(font.get(PDFName.of('FontFile2')), 'embedded').toBeDefined();
      expect(font.get(PDFName.of('FontName'))?.toString()).toMatch(/^\/[A-Z]{6}\+LiberationSans(-Bold)?$/);
    }
  });

  it('numbers the pages again over the whole file when a page is appended, and refreshes the metadata', async () => {
    const writer = await PdfWriter.create({ title: 'Credit Agreement', author: 'Provider Ltd', footer: 'f' });
    for (let i = 0; i < 60; i++) writer.paragraph(`Paragraph ${i}`);
    const doc = await PDFDocument.load(await writer.finish());
    expect(doc.getPageCount()).toBe(2);
    const before = pageNumberForms(doc);
    const appended = await PdfWriter.appendTo(doc, 'Certificate');
    appended.paragraph('The certificate');
    appended.drawFooters();
    const saved = await PDFDocument.load(await doc.save(), { updateMetadata: false });
    expect(saved.getPageCount()).toBe(3);
    const after = pageNumberForms(saved);
    // Each page's form is replaced, never added to: one number per page, each new.
    expect(after).toHaveLength(3);
    for (let i = 0; i < 2; i++) expect(after[i]).not.toBe(before[i]);
    expect(new Set(after).size).toBe(3);
    expect(saved.getTitle()).toBe('Credit Agreement');
    expect(saved.getProducer()).toBe('Provider Ltd');
    expect(xmp(saved)).toContain(
      `<xmp:ModifyDate>${saved.getModificationDate()!.toISOString().replace('.000Z', 'Z')}</xmp:ModifyDate>`,
    );
    expect(saved.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).size()).toBe(1);
  });
});
