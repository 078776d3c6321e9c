import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { expect } from 'vitest';
import { pdfAssets } from '../../src/server/pdf/pdf-assets';

/** What a generated PDF was found to be: its page count and each page's text. */
export interface ArchivalReport {
  pages: number;
  pageTexts: string[];
  /** The whole text, white space made single spaces. */
  text: string;
}

/**
 * Checks a PDF as an archive would (docs/decisions.md: 490-494), with poppler-utils and qpdf:
 * every font embedded (pdffonts), the file's structure sound (qpdf --check), XMP metadata that
 * declares PDF/A-2b (pdfinfo -meta), an output intent whose profile is the shipped sRGB one, and
 * "Page n of m" on every page with m the file's page count (pdftotext, page by page).
 */
export async function expectArchivalPdf(bytes: Uint8Array, what: string): Promise<ArchivalReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdfa-'));
  const file = path.join(dir, 'doc.pdf');
  fs.writeFileSync(file, bytes);
  try {
    const run = (tool: string, args: string[]) => execFileSync(tool, [...args], { encoding: 'utf8' });

    const fonts = run('pdffonts', [file]).trim().split('\n').slice(2);
    expect(fonts.length, `${what}: pdffonts lists its fonts`).toBeGreaterThan(0);
    for (const row of fonts) {
      // name, type (may hold spaces), encoding, then emb sub uni and the object id: read from the end.
      const [emb] = row.trim().split(/\s+/).slice(-5);
      expect(emb, `${what}: ${row}`).toBe('yes');
    }

    const check = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
    expect(check.status, `${what}: qpdf --check\n${check.stdout}${check.stderr}`).toBe(0);
    expect(check.stdout).toContain('No syntax or stream encoding errors found');

    const xmp = run('pdfinfo', ['-meta', file]);
    expect(xmp, `${what}: XMP`).toMatch(/<pdfaid:part>2<\/pdfaid:part>/);
    expect(xmp, `${what}: XMP`).toMatch(/<pdfaid:conformance>B<\/pdfaid:conformance>/);
    const info = run('pdfinfo', [file]);
    const title = /^Title:\s+(.*)$/m.exec(info)?.[1];
    expect(title, `${what}: a title`).toBeTruthy();
    expect(xmp, `${what}: the XMP title is the document's`).toContain(`xml:lang="x-default">${xmlEscaped(title!)}</rdf:li>`);

    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    const intents = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray);
    const intent = intents.lookup(0, PDFDict);
    expect(intent.get(PDFName.of('S'))).toEqual(PDFName.of('GTS_PDFA1'));
    const profile = intent.lookup(PDFName.of('DestOutputProfile'));
    expect(profile).toBeInstanceOf(PDFRawStream);
    const icc = decodePDFRawStream(profile as PDFRawStream).decode();
    expect(Buffer.from(icc).equals(Buffer.from(pdfAssets().srgb)), `${what}: the sRGB profile`).toBe(true);
    expect(Buffer.from(icc.subarray(16, 20)).toString('latin1')).toBe('RGB ');

    const pages = Number(/^Pages:\s+(\d+)$/m.exec(info)![1]);
    expect(pages).toBe(doc.getPageCount());
    const pageTexts: string[] = [];
    for (let page = 1; page <= pages; page++) {
      const text = run('pdftotext', ['-f', String(page), '-l', String(page), '-layout', file, '-']);
      expect(text.match(/Page \d+ of \d+/g), `${what}: page ${page}`).toEqual([`Page ${page} of ${pages}`]);
      pageTexts.push(text);
    }
    return { pages, pageTexts, text: pageTexts.join('\n').replace(/\s+/g, ' ') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function xmlEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
