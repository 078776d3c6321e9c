import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFDocument } from 'pdf-lib';
import type { ValidationData } from './validation-data';

export type DssContents = Pick<ValidationData, 'certificates' | 'crls' | 'ocsps'>;

const KEYS = { certificates: 'Certs', crls: 'CRLs', ocsps: 'OCSPs' } as const;

/**
 * The Document Security Store (ETSI EN 319 142-1, 5.4.2; ISO 32000-2, 12.8.4.3): the catalog's /DSS
 * with /Certs, /CRLs and /OCSPs arrays of streams, each one DER object. What `doc` already has is
 * kept and only new material is added. Answers the DSS dictionary's reference and whether the
 * catalog had to change (a new DSS, or one written directly in the catalog).
 */
export function writeDss(doc: PDFDocument, contents: DssContents): { ref: PDFRef; dict: PDFDict; catalogChanged: boolean } {
  const { context, catalog } = doc;
  const current = catalog.get(PDFName.of('DSS'));
  const existing =
    current instanceof PDFRef ? context.lookup(current, PDFDict) : current instanceof PDFDict ? current : undefined;
  const dict = existing?.clone(context) ?? context.obj({ Type: 'DSS' });
  for (const [field, key] of Object.entries(KEYS) as [keyof DssContents, string][]) {
    // A new array (written directly in the DSS), so an array the earlier DSS referenced stays as it was.
    const list = context.obj([...(dict.lookupMaybe(PDFName.of(key), PDFArray)?.asArray() ?? [])]);
    const held = list.asArray().map((entry) => {
      const stream = context.lookup(entry);
      return stream instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(stream).decode()) : undefined;
    });
    for (const bytes of contents[field]) {
      if (held.some((h) => h?.equals(bytes))) continue;
      list.push(context.register(context.flateStream(bytes)));
      held.push(Buffer.from(bytes));
    }
    if (list.size() > 0) dict.set(PDFName.of(key), list);
  }
  const ref = current instanceof PDFRef ? current : context.register(dict);
  if (current instanceof PDFRef) context.assign(ref, dict);
  else catalog.set(PDFName.of('DSS'), ref);
  return { ref, dict, catalogChanged: !(current instanceof PDFRef) };
}
