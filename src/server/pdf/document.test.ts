import { StandardFonts, PDFDocument } from 'pdf-lib';
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
