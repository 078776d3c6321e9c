import fs from 'node:fs';
import path from 'node:path';
import { PDF_ASSETS_FOLDER } from '../paths';

/**
 * The files every generated PDF embeds, shipped with the project (never the machine's own fonts:
 * docs/decisions.md 490-491): Liberation Sans, whose widths are Helvetica's, and the sRGB profile
 * of the PDF/A output intent. Read once per thread (each PDF worker is a thread of its own).
 */
export interface PdfAssets {
  regular: Uint8Array;
  bold: Uint8Array;
  srgb: Uint8Array;
}

let assets: PdfAssets | undefined;

export function pdfAssets(): PdfAssets {
  const read = (name: string) => new Uint8Array(fs.readFileSync(path.join(PDF_ASSETS_FOLDER, name)));
  assets ??= { regular: read('LiberationSans-Regular.ttf'), bold: read('LiberationSans-Bold.ttf'), srgb: read('sRGB.icc') };
  return assets;
}
