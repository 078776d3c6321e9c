import { readTlv } from './der';

/** Where a signature sits in a PDF: its /ByteRange and the /Contents hex string it leaves out. */
export interface SignatureSpan {
  byteRange: [number, number, number, number];
  /** The '<' that opens /Contents and the position after its '>' (= byteRange[1], byteRange[2]). */
  contentsStart: number;
  contentsEnd: number;
}

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;

/** Every signature's span, in the order they appear in the file (the last one is the newest). */
export function signatureSpans(pdf: Uint8Array): SignatureSpan[] {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const spans: SignatureSpan[] = [];
  for (const match of text.matchAll(BYTE_RANGE)) {
    const byteRange = match.slice(1, 5).map(Number) as SignatureSpan['byteRange'];
    const [start, length, after] = byteRange;
    if (start !== 0 || text[length] !== '<' || text[after - 1] !== '>') continue;
    spans.push({ byteRange, contentsStart: length, contentsEnd: after });
  }
  return spans;
}

export function lastSignature(pdf: Uint8Array): SignatureSpan {
  const span = signatureSpans(pdf).at(-1);
  if (!span) throw new Error('the PDF has no signature');
  return span;
}

/** The bytes a signature covers: the two ranges around its /Contents. */
export function signedBytes(pdf: Uint8Array, span: SignatureSpan): Uint8Array {
  const [a, b, c, d] = span.byteRange;
  return new Uint8Array(Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]));
}

/** The DER in /Contents, without the zero padding after it. */
export function signatureContents(pdf: Uint8Array, span: SignatureSpan): Uint8Array {
  const hex = Buffer.from(pdf.subarray(span.contentsStart + 1, span.contentsEnd - 1)).toString('latin1');
  const bytes = new Uint8Array(Buffer.from(hex, 'hex'));
  return bytes.slice(0, readTlv(bytes).end);
}

/**
 * The PDF with `der` written into the span's /Contents (hex, padded with zeros to the same length).
 * /Contents is outside every range the signature covers, so nothing signed changes.
 */
export function withSignatureContents(pdf: Uint8Array, span: SignatureSpan, der: Uint8Array): Uint8Array {
  const room = span.contentsEnd - span.contentsStart - 2;
  const hex = Buffer.from(der).toString('hex');
  if (hex.length > room) throw new Error(`the signature (${der.length} bytes) does not fit its placeholder (${room / 2} bytes)`);
  const out = new Uint8Array(pdf);
  out.set(Buffer.from(hex.padEnd(room, '0'), 'latin1'), span.contentsStart + 1);
  return out;
}
