import { randomBytes } from 'node:crypto';
import fontkit from '@pdf-lib/fontkit';
import { PDFArray, PDFHexString, PDFName, PDFRef, PDFString, type PDFDocument, type PDFFont } from 'pdf-lib';
import { pdfAssets } from './pdf-assets';

/**
 * What makes a generated PDF a PDF/A-2b file (docs/decisions.md: 490-493): fonts embedded (subsets
 * of the shipped Liberation Sans), XMP metadata that declares PDF/A-2b and agrees with the
 * document information, an sRGB output intent for the RGB colours the pages use, and a file id.
 */

export interface DocumentFonts {
  regular: PDFFont;
  bold: PDFFont;
}

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type Font = ReturnType<Fontkit['create']>;

/**
 * fontkit with one glyph per character, straight from the font's character map, instead of its
 * shaping engine (substitutions and positioning lookups for every line drawn, which made a long
 * application's PDF several times slower). The portal's text is left to right, and pdf-lib draws
 * each glyph at its own advance (no kerning) whichever way it is mapped: so a line measured
 * character by character is exactly the line drawn, ligatures never replace two letters with one
 * glyph, and the text extracts as it was written (docs/decisions.md: 492).
 */
const unshapedFontkit: Fontkit = {
  create(data, postScriptName) {
    const font = fontkit.create(data, postScriptName) as Font;
    const glyphs = new Map<number, ReturnType<Font['glyphForCodePoint']>>();
    const glyphOf = (codePoint: number) => {
      let glyph = glyphs.get(codePoint);
      if (!glyph) glyphs.set(codePoint, (glyph = font.glyphForCodePoint(codePoint)));
      return glyph;
    };
    // pdf-lib reads only the glyphs of a run (each drawn at its own advance).
    font.layout = (text: string) => {
      const run = [];
      for (let i = 0; i < text.length; i++) {
        const codePoint = text.codePointAt(i)!;
        if (codePoint > 0xffff) i++;
        run.push(glyphOf(codePoint));
      }
      return { glyphs: run, positions: [] } as unknown as ReturnType<Font['layout']>;
    };
    return font;
  },
};

/**
 * The shipped fonts, embedded as subsets: only the glyphs the document draws are written, under
 * the subset's name as PDF names one: six capital letters, '+', the font's PostScript name.
 */
export async function embedDocumentFonts(doc: PDFDocument): Promise<DocumentFonts> {
  doc.registerFontkit(unshapedFontkit);
  const { regular, bold } = pdfAssets();
  const subset = (postScriptName: string) => ({ subset: true, customName: `${subsetTag()}+${postScriptName}` });
  return {
    regular: await doc.embedFont(regular, subset('LiberationSans')),
    bold: await doc.embedFont(bold, subset('LiberationSans-Bold')),
  };
}

function subsetTag(): string {
  return Array.from(randomBytes(6), (byte) => String.fromCharCode(65 + (byte % 26))).join('');
}

/** The output condition named for the sRGB profile (the ICC's registered name for it). */
const SRGB = 'sRGB IEC61966-2.1';

/**
 * Declares the document PDF/A-2b: the document information (title, author, producer, dates) and
 * the XMP metadata written together from the same values, as PDF/A requires them to agree; the
 * sRGB output intent and the file id added when the file has none yet. Called again on a changed
 * file (the certificate page appended), it writes the metadata anew with the new modification date.
 */
export function declarePdfA(doc: PDFDocument, meta: { title: string; author: string }, now: Date = new Date()): void {
  // The document information keeps whole seconds: the XMP dates must be the same instants.
  const modified = wholeSeconds(now);
  const created = wholeSeconds(doc.getCreationDate() ?? modified);
  doc.setTitle(meta.title);
  doc.setAuthor(meta.author);
  doc.setCreator(meta.author);
  doc.setProducer(meta.author);
  doc.setCreationDate(created);
  doc.setModificationDate(modified);

  const xmp = doc.context.stream(xmpPacket({ ...meta, created, modified }), { Type: 'Metadata', Subtype: 'XML' });
  const existing = doc.catalog.get(PDFName.of('Metadata'));
  if (existing instanceof PDFRef) doc.context.assign(existing, xmp);
  else doc.catalog.set(PDFName.of('Metadata'), doc.context.register(xmp));

  if (!doc.catalog.has(PDFName.of('OutputIntents'))) {
    const profile = doc.context.register(doc.context.flateStream(pdfAssets().srgb, { N: 3 }));
    const intent = doc.context.obj({
      Type: 'OutputIntent',
      S: 'GTS_PDFA1',
      OutputConditionIdentifier: PDFString.of(SRGB),
      Info: PDFString.of(SRGB),
      RegistryName: PDFString.of('http://www.color.org'),
      DestOutputProfile: profile,
    });
    doc.catalog.set(PDFName.of('OutputIntents'), doc.context.obj([doc.context.register(intent)]));
  }

  // The file id: its first part stays the file's own, the second changes with each version.
  const previous = doc.context.trailerInfo.ID && doc.context.lookup(doc.context.trailerInfo.ID);
  const own = previous instanceof PDFArray ? previous.get(0) : undefined;
  const first = own instanceof PDFHexString || own instanceof PDFString ? own : newId();
  doc.context.trailerInfo.ID = doc.context.obj([first, newId()]);
}

const newId = () => PDFHexString.of(randomBytes(16).toString('hex'));

function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

const xmlDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Text as XML character data: markup escaped, characters XML cannot hold left out. */
function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function xmpPacket(meta: { title: string; author: string; created: Date; modified: Date }): Uint8Array {
  const title = xmlText(meta.title);
  const author = xmlText(meta.author);
  const xml = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
   <pdfaid:part>2</pdfaid:part>
   <pdfaid:conformance>B</pdfaid:conformance>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>${author}</rdf:li></rdf:Seq></dc:creator>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
   <xmp:CreatorTool>${author}</xmp:CreatorTool>
   <xmp:CreateDate>${xmlDate(meta.created)}</xmp:CreateDate>
   <xmp:ModifyDate>${xmlDate(meta.modified)}</xmp:ModifyDate>
   <xmp:MetadataDate>${xmlDate(meta.modified)}</xmp:MetadataDate>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
   <pdf:Producer>${author}</pdf:Producer>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
  return new TextEncoder().encode(xml);
}
