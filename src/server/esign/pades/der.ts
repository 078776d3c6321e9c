/**
 * The few DER steps the CMS library leaves to us: reading an element's exact bytes out of a larger
 * structure (a certificate's issuer, a time-stamp token inside a response) without decoding and
 * encoding it again, and writing the small ESS structure byte for byte. Re-encoding signed
 * material risks changing it; these functions only slice and concatenate.
 */

export interface Tlv {
  tag: number;
  /** Where the element starts (its tag byte) and ends (after its contents), in the input. */
  start: number;
  end: number;
  /** Where its contents start. */
  contentStart: number;
  contentEnd: number;
}

/** The element at `offset` (definite or BER indefinite length). */
export function readTlv(bytes: Uint8Array, offset = 0): Tlv {
  const fail = (why: string): never => {
    throw new Error(`malformed DER at ${offset}: ${why}`);
  };
  if (offset + 2 > bytes.length) fail('truncated');
  const tag = bytes[offset]!;
  if ((tag & 0x1f) === 0x1f) fail('multi-byte tags are not used here');
  let cursor = offset + 1;
  const first = bytes[cursor++]!;
  if (first === 0x80) {
    // Indefinite length (BER): elements follow until the end-of-contents octets.
    if ((tag & 0x20) === 0) fail('indefinite length on a primitive element');
    let at = cursor;
    while (!(bytes[at] === 0 && bytes[at + 1] === 0)) {
      if (at >= bytes.length) fail('no end-of-contents');
      at = readTlv(bytes, at).end;
    }
    return { tag, start: offset, end: at + 2, contentStart: cursor, contentEnd: at };
  }
  let length = first;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count > 4) fail('length too large');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[cursor++]!;
  }
  const end = cursor + length;
  if (end > bytes.length) fail('truncated contents');
  return { tag, start: offset, end, contentStart: cursor, contentEnd: end };
}

/** The elements inside a constructed element, in order. */
export function children(bytes: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.contentStart; at < parent.contentEnd;) {
    const child = readTlv(bytes, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

export const slice = (bytes: Uint8Array, tlv: Tlv): Uint8Array => bytes.slice(tlv.start, tlv.end);

function lengthBytes(length: number): number[] {
  if (length < 0x80) return [length];
  const out: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) out.unshift(n % 256);
  return [0x80 | out.length, ...out];
}

/** One element: its tag, its length, then its contents. */
export function encode(tag: number, ...contents: Uint8Array[]): Uint8Array {
  const body = concat(contents);
  return concat([Uint8Array.of(tag, ...lengthBytes(body.length)), body]);
}

export const sequence = (...contents: Uint8Array[]) => encode(0x30, ...contents);
export const octetString = (contents: Uint8Array) => encode(0x04, contents);

/** A DER SET OF: its elements sorted by their encodings (X.690 11.6), as verifiers re-encode it. */
export function setOf(elements: readonly Uint8Array[]): Uint8Array {
  return encode(0x31, ...[...elements].sort((a, b) => Buffer.compare(a, b)));
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** The Uint8Array view an ArrayBuffer-based library answers with, and back. */
export const bytesOf = (buffer: ArrayBuffer | ArrayBufferView): Uint8Array =>
  buffer instanceof ArrayBuffer
    ? new Uint8Array(buffer)
    : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).slice();
export const bufferOf = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** An OBJECT IDENTIFIER element from its dotted form. */
export function oid(dotted: string): Uint8Array {
  const arcs = dotted.split('.').map(Number);
  const body: number[] = [];
  const base128 = (n: number) => {
    const out = [n & 0x7f];
    for (n = Math.floor(n / 128); n > 0; n = Math.floor(n / 128)) out.unshift((n & 0x7f) | 0x80);
    body.push(...out);
  };
  base128(arcs[0]! * 40 + arcs[1]!);
  for (const arc of arcs.slice(2)) base128(arc);
  return encode(0x06, Uint8Array.from(body));
}

export const NULL = Uint8Array.of(0x05, 0x00);
