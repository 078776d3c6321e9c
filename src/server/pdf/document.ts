import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/** A4 in points, with the margins every generated page uses. */
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = { top: 56, bottom: 56, left: 50, right: 50 };
const TEXT = { size: 10, leading: 14 };
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.38, 0.42);
const RULE = rgb(0.8, 0.8, 0.84);

/**
 * A small flowing-text writer over pdf-lib: headings, label/value rows with both columns wrapped,
 * paragraphs; a new page whenever the next line would not fit; page numbers at the end. Text the
 * standard fonts cannot encode (outside Windows-1252) is replaced, never a reason to fail.
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
    private readonly footer: string,
  ) {
    this.charset = new Set([...regular.getCharacterSet(), ...bold.getCharacterSet()]);
    this.firstPage = doc.getPageCount();
    this.newPage();
  }

  /** A writer of pages added at the end of an existing document (the signature certificate page). */
  static async appendTo(doc: PDFDocument, footer: string): Promise<PdfWriter> {
    return new PdfWriter(
      doc,
      await doc.embedFont(StandardFonts.Helvetica),
      await doc.embedFont(StandardFonts.HelveticaBold),
      footer,
    );
  }

  static async create(meta: { title: string; author: string; footer: string }): Promise<PdfWriter> {
    const doc = await PDFDocument.create();
    doc.setTitle(meta.title);
    doc.setAuthor(meta.author);
    doc.setProducer(meta.author);
    doc.setCreator(meta.author);
    const writer = new PdfWriter(
      doc,
      await doc.embedFont(StandardFonts.Helvetica),
      await doc.embedFont(StandardFonts.HelveticaBold),
      meta.footer,
    );
    return writer;
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
   * Kerning is left out: it only narrows Helvetica's pairs, so a line measured this way never
   * overflows.
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

  /** Numbers this writer's own pages in their footer (Page n of m). */
  drawFooters(): void {
    const pages = this.doc.getPages().slice(this.firstPage);
    pages.forEach((page, i) => {
      const text = this.clean(`${this.footer} - Page ${i + 1} of ${pages.length}`);
      page.drawText(text, { x: MARGIN.left, y: MARGIN.bottom / 2, size: 8, font: this.regular, color: MUTED });
    });
  }

  async finish(): Promise<Uint8Array> {
    this.drawFooters();
    return this.doc.save();
  }
}
