import { deflateSync } from 'node:zlib';
import {
  PDFContentStream,
  PDFName,
  PDFRawStream,
  PDFRef,
  degrees,
  drawObject,
  drawText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  PDFDocument,
  PDFDict,
} from 'pdf-lib';
import type { PDFFont, PDFPage } from 'pdf-lib';
import { declarePdfA, embedDocumentFonts } from './pdfa';

/** A4 in points, with the margins every generated page uses. */
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = { top: 56, bottom: 56, left: 50, right: 50 };
const TEXT = { size: 10, leading: 14 };
/** The footer, under the bottom margin: the provider's role above, the label and "Page n of m" below. */
const FOOTER = { size: 8, y: MARGIN.bottom / 2, legalSize: 7, legalY: MARGIN.bottom / 2 + 11, numberRoom: 72 };
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.38, 0.42);
const RULE = rgb(0.8, 0.8, 0.84);

/** The name of each page's page-number form (docs/decisions.md: 493). */
const PAGE_NUMBER = PDFName.of('PageNumber');
const PAGE_NUMBER_FONT = 'PageNumberFont';

/**
 * Writes "Page n of m" on every page of the file, counting every page it has now: each page
 * draws its number from a form of its own (/PageNumber in the page's resources), which a later
 * call replaces, so a document that pages are appended to (the signature certificate page) is
 * numbered again over all of them (docs/decisions.md: 493).
 */
export function numberPages(doc: PDFDocument, font: PDFFont): void {
  const pages = doc.getPages();
  pages.forEach((page, i) => {
    const text = `Page ${i + 1} of ${pages.length}`;
    const { width, height } = page.getSize();
    // Uncompressed: a few bytes, where deflating each page's form cost more than the whole page.
    const form = PDFContentStream.of(
      doc.context.obj({
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, width, height],
        Resources: { Font: { [PAGE_NUMBER_FONT]: font.ref } },
      }),
      drawText(font.encodeText(text), {
        x: width - MARGIN.right - font.widthOfTextAtSize(text, FOOTER.size),
        y: FOOTER.y,
        size: FOOTER.size,
        font: PAGE_NUMBER_FONT,
        color: MUTED,
        rotate: degrees(0),
        xSkew: degrees(0),
        ySkew: degrees(0),
      }),
      false,
    );
    const resources = page.node.normalizedEntries().Resources;
    let xobjects = resources.lookupMaybe(PDFName.of('XObject'), PDFDict);
    if (!xobjects) resources.set(PDFName.of('XObject'), (xobjects = doc.context.obj({})));
    const previous = xobjects.get(PAGE_NUMBER);
    xobjects.set(PAGE_NUMBER, doc.context.register(form));
    if (previous instanceof PDFRef) doc.context.delete(previous);
    else page.pushOperators(pushGraphicsState(), drawObject(PAGE_NUMBER), popGraphicsState());
  });
}

/**
 * Compresses the pages' content streams with Node's zlib, natively, where pdf-lib would run its
 * JavaScript deflate (pako) over each at save: the same Flate streams, made several times faster,
 * which keeps a long application's PDF within its time limit now that each character is two bytes
 * of a CID font (docs/decisions.md: 492). Only for a document about to be saved by its writer:
 * a page whose stream is replaced can no longer be drawn on.
 */
function deflateContentStreams(doc: PDFDocument): void {
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFContentStream) || !object.dict.has(PDFName.of('Filter'))) continue;
    doc.context.assign(ref, PDFRawStream.of(object.dict, deflateSync(object.getUnencodedContents())));
  }
}

/**
 * A small flowing-text writer over pdf-lib: headings, label/value rows with both columns wrapped,
 * paragraphs; a new page whenever the next line would not fit; the footer and page numbers at the
 * end. Its files are PDF/A-2b (pdfa.ts): the shipped fonts embedded as subsets, text they cannot
 * draw replaced, never a reason to fail.
 */
export class PdfWriter {
  private page!: PDFPage;
  private y = 0;
  private readonly charset: Set<number>;
  private readonly widths = new Map<string, Map<string, number>>();
  /** The first page this writer made (pages of a document it was appended to are not its own). */
  private readonly firstPage: number;

  private constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly footer: { label: string; legal?: string },
  ) {
    this.charset = new Set([...regular.getCharacterSet(), ...bold.getCharacterSet()]);
    this.firstPage = doc.getPageCount();
    this.newPage();
  }

  /** A writer of pages added at the end of an existing document (the signature certificate page). */
  static async appendTo(doc: PDFDocument, footer: string): Promise<PdfWriter> {
    const fonts = await embedDocumentFonts(doc);
    return new PdfWriter(doc, fonts.regular, fonts.bold, { label: footer });
  }

  /** A new document; `legal` (the provider's role) is printed above the footer of every page. */
  static async create(meta: { title: string; author: string; footer: string; legal?: string }): Promise<PdfWriter> {
    const doc = await PDFDocument.create();
    doc.setTitle(meta.title);
    doc.setAuthor(meta.author);
    const fonts = await embedDocumentFonts(doc);
    return new PdfWriter(doc, fonts.regular, fonts.bold, { label: meta.footer, legal: meta.legal });
  }

  private get width(): number {
    return PAGE.width - MARGIN.left - MARGIN.right;
  }

  private newPage(): void {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN.top;
  }

  private ensure(height: number): void {
    if (this.y - height < MARGIN.bottom) this.newPage();
  }

  /** Text the font can draw: tabs and odd spaces become spaces, unknown characters '?'. */
  clean(text: string): string {
    let out = '';
    for (const ch of text.replace(/\r\n?/g, '\n').replace(/[\t\u00a0\u2000-\u200b\u202f\u205f\u3000]/g, ' ')) {
      const code = ch.codePointAt(0)!;
      out += ch === '\n' || this.charset.has(code) ? ch : '?';
    }
    return out;
  }

  /**
   * Wraps text to a width: words where possible, long words broken by character. Linear in the
   * text: a word wider than the line is cut by adding up its characters' widths once, never by
   * measuring ever shorter prefixes (a long word made that cubic, and a 100,000-character answer
   * took minutes).
   */
  wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    const measure = this.measurer(font, size);
    for (const paragraph of this.clean(text).split('\n')) {
      let line = '';
      let lineWidth = 0;
      for (const word of paragraph.split(/ +/)) {
        const wordWidth = measure(word);
        const candidateWidth = line ? lineWidth + measure(' ') + wordWidth : wordWidth;
        if (candidateWidth <= width) {
          line = line ? `${line} ${word}` : word;
          lineWidth = candidateWidth;
          continue;
        }
        if (line) lines.push(line);
        lineWidth = 0;
        if (wordWidth <= width) {
          line = word;
          lineWidth = wordWidth;
          continue;
        }
        let start = 0;
        for (let i = 0; i < word.length; i++) {
          const charWidth = measure(word[i]!);
          // At least one character per line, whatever the width.
          if (i > start && lineWidth + charWidth > width) {
            lines.push(word.slice(start, i));
            start = i;
            lineWidth = 0;
          }
          lineWidth += charWidth;
        }
        line = word.slice(start);
      }
      lines.push(line);
    }
    return lines;
  }

  /**
   * Widths of text in one font and size, from per-character widths kept once per character.
   * Kerning is left out as it is when drawn (pdf-lib draws each glyph at its own advance), and
   * ligatures are off (pdfa.ts), so a line measured this way is the line drawn.
   */
  private measurer(font: PDFFont, size: number): (text: string) => number {
    const key = `${font.name}/${size}`;
    let widths = this.widths.get(key);
    if (!widths) this.widths.set(key, (widths = new Map()));
    const known = widths;
    return (text) => {
      let total = 0;
      for (let i = 0; i < text.length; i++) {
        const ch = text[i]!;
        let w = known.get(ch);
        if (w === undefined) known.set(ch, (w = font.widthOfTextAtSize(ch, size)));
        total += w;
      }
      return total;
    };
  }

  title(text: string, subtitle?: string): void {
    for (const line of this.wrap(text, this.bold, 18, this.width)) {
      this.ensure(24);
      this.page.drawText(line, { x: MARGIN.left, y: this.y - 18, size: 18, font: this.bold, color: INK });
      this.y -= 24;
    }
    if (subtitle) {
      for (const line of this.wrap(subtitle, this.regular, TEXT.size, this.width)) {
        this.ensure(TEXT.leading);
        this.page.drawText(line, { x: MARGIN.left, y: this.y - TEXT.size, size: TEXT.size, font: this.regular, color: MUTED });
        this.y -= TEXT.leading;
      }
    }
    this.y -= 8;
  }

  heading(text: string): void {
    // Keep a heading with at least two rows after it.
    this.ensure(22 + TEXT.leading * 2);
    this.y -= 8;
    this.page.drawText(this.wrap(text, this.bold, 13, this.width)[0] ?? '', {
      x: MARGIN.left,
      y: this.y - 13,
      size: 13,
      font: this.bold,
      color: INK,
    });
    this.y -= 18;
    this.page.drawLine({
      start: { x: MARGIN.left, y: this.y },
      end: { x: PAGE.width - MARGIN.right, y: this.y },
      thickness: 0.6,
      color: RULE,
    });
    this.y -= 6;
  }

  subheading(text: string): void {
    this.ensure(TEXT.leading * 3);
    this.y -= 4;
    for (const line of this.wrap(text, this.bold, TEXT.size + 1, this.width)) {
      this.page.drawText(line, { x: MARGIN.left, y: this.y - TEXT.size, size: TEXT.size + 1, font: this.bold, color: INK });
      this.y -= TEXT.leading;
    }
  }

  /** A question and its answer side by side; both wrap, the row breaks across pages line by line. */
  row(label: string, value: string): void {
    const labelWidth = this.width * 0.45;
    const gap = 12;
    const valueWidth = this.width - labelWidth - gap;
    const labelLines = this.wrap(label, this.regular, TEXT.size, labelWidth);
    const valueLines = this.wrap(value || '-', this.bold, TEXT.size, valueWidth);
    const count = Math.max(labelLines.length, valueLines.length);
    for (let i = 0; i < count; i++) {
      this.ensure(TEXT.leading);
      const baseline = this.y - TEXT.size;
      if (labelLines[i])
        this.page.drawText(labelLines[i]!, { x: MARGIN.left, y: baseline, size: TEXT.size, font: this.regular, color: MUTED });
      if (valueLines[i])
        this.page.drawText(valueLines[i]!, {
          x: MARGIN.left + labelWidth + gap,
          y: baseline,
          size: TEXT.size,
          font: this.bold,
          color: INK,
        });
      this.y -= TEXT.leading;
    }
    this.y -= 3;
  }

  paragraph(text: string): void {
    for (const line of this.wrap(text, this.regular, TEXT.size, this.width)) {
      this.ensure(TEXT.leading);
      this.page.drawText(line, { x: MARGIN.left, y: this.y - TEXT.size, size: TEXT.size, font: this.regular, color: INK });
      this.y -= TEXT.leading;
    }
    this.y -= 4;
  }

  /** The first line of text that fits the width, in the footer's font. */
  private fitted(text: string, size: number, width: number): string {
    return this.wrap(text, this.regular, size, width)[0] ?? '';
  }

  /**
   * The footer of this writer's own pages (the provider's role, the label), then "Page n of m" on
   * every page of the file, and the PDF/A metadata written for the file as it now is: on a document
   * appended to, the pages before are numbered again, counting the appended ones (decision 493).
   */
  drawFooters(): void {
    const width = PAGE.width - MARGIN.left - MARGIN.right;
    for (const page of this.doc.getPages().slice(this.firstPage)) {
      if (this.footer.legal)
        page.drawText(this.fitted(this.footer.legal, FOOTER.legalSize, width), {
          x: MARGIN.left,
          y: FOOTER.legalY,
          size: FOOTER.legalSize,
          font: this.regular,
          color: MUTED,
        });
      page.drawText(this.fitted(this.footer.label, FOOTER.size, width - FOOTER.numberRoom), {
        x: MARGIN.left,
        y: FOOTER.y,
        size: FOOTER.size,
        font: this.regular,
        color: MUTED,
      });
    }
    numberPages(this.doc, this.regular);
    declarePdfA(this.doc, { title: this.doc.getTitle() ?? '', author: this.doc.getAuthor() ?? '' });
  }

  async finish(): Promise<Uint8Array> {
    this.drawFooters();
    deflateContentStreams(this.doc);
    return this.doc.save();
  }
}
