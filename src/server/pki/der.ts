/**
 * A minimal DER (ITU-T X.690) writer for the handful of ASN.1 types an X.509
 * certificate needs, and a reader just able to step through the elements of
 * a SEQUENCE (to lift a CA's subject out of its certificate, or the key bits
 * out of a SubjectPublicKeyInfo).
 *
 * Own code rather than asn1js: importing asn1js (with pvtsutils, pvutils and
 * tslib) measured 30-40 ms, a third of the 100 ms the server may spend on
 * import + start (issue #11), for what is here a few dozen lines. Only
 * single-byte tags (tag numbers below 31) and definite lengths exist in DER
 * certificates, so that is all either side handles.
 */

/** One element: tag byte, definite length (short or long form), then the contents. */
export function tlv(tag: number, ...contents: Uint8Array[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), encodeLength(body.length), body]);
}

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function sequence(...elements: Uint8Array[]): Buffer {
  return tlv(0x30, ...elements);
}

/** SET OF: DER orders the elements by their encodings (X.690 11.6). */
export function setOf(...elements: Buffer[]): Buffer {
  return tlv(0x31, ...[...elements].sort(Buffer.compare));
}

export function boolean(value: boolean): Buffer {
  return tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
}

/** A non-negative INTEGER from its big-endian magnitude, in the minimal form DER demands. */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const bytes = magnitude.subarray(start);
  // A set top bit would read as negative: prefix a zero octet.
  return tlv(0x02, bytes.length === 0 || bytes[0] & 0x80 ? Buffer.from([0]) : Buffer.alloc(0), bytes);
}

export function smallInteger(value: number): Buffer {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) {
    throw new RangeError(`smallInteger: ${value} is not an integer in 0..65535`);
  }
  return unsignedInteger(Buffer.from([value >> 8, value & 0xff]));
}

/** OBJECT IDENTIFIER from dotted form: the first two arcs share an octet, the rest are base-128. */
export function objectIdentifier(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  if (arcs.length < 2 || arcs.some((arc) => !Number.isSafeInteger(arc) || arc < 0)) {
    throw new RangeError(`objectIdentifier: bad OID ${dotted}`);
  }
  const bytes: number[] = [];
  for (const arc of [arcs[0] * 40 + arcs[1], ...arcs.slice(2)]) {
    const base128 = [arc & 0x7f];
    for (let rest = Math.floor(arc / 128); rest > 0; rest = Math.floor(rest / 128)) {
      base128.unshift(0x80 | (rest & 0x7f));
    }
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

export function octetString(bytes: Uint8Array): Buffer {
  return tlv(0x04, bytes);
}

/** BIT STRING whose last `unusedBits` bits (which must be zero) are padding. */
export function bitString(bytes: Uint8Array, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.from([unusedBits]), bytes);
}

export function utf8String(text: string): Buffer {
  return tlv(0x0c, Buffer.from(text, 'utf8'));
}

/** UTCTime through 2049 and GeneralizedTime from 2050, whole seconds, Zulu: RFC 5280 §4.1.2.5. */
export function time(date: Date): Buffer {
  const year = date.getUTCFullYear();
  if (year < 1950 || year > 9999) throw new RangeError(`time: year ${year} is outside 1950..9999`);
  const two = (n: number) => String(n).padStart(2, '0');
  const rest = [
    date.getUTCMonth() + 1,
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  ]
    .map(two)
    .join('');
  return year < 2050
    ? tlv(0x17, Buffer.from(`${two(year % 100)}${rest}Z`, 'ascii'))
    : tlv(0x18, Buffer.from(`${year}${rest}Z`, 'ascii'));
}

/** `[n] EXPLICIT`: a constructed context-specific element wrapping whole encodings. */
export function explicit(tagNumber: number, ...elements: Uint8Array[]): Buffer {
  return tlv(0xa0 | tagNumber, ...elements);
}

/** `[n] IMPLICIT` over a primitive type: the context tag replaces the type's own. */
export function implicitPrimitive(tagNumber: number, contents: Uint8Array): Buffer {
  return tlv(0x80 | tagNumber, contents);
}

/** One element read back: its tag, its whole encoding and its contents. */
export interface DerElement {
  tag: number;
  encoded: Buffer;
  contents: Buffer;
}

/** The elements directly inside the constructed element (e.g. a SEQUENCE) that `der` holds. */
export function childrenOf(der: Buffer): DerElement[] {
  const outer = readElement(der, 0);
  if ((outer.tag & 0x20) === 0) throw new Error(`DER: tag 0x${outer.tag.toString(16)} is not constructed`);
  const children: DerElement[] = [];
  for (let offset = 0; offset < outer.contents.length; ) {
    const child = readElement(outer.contents, offset);
    children.push(child);
    offset += child.encoded.length;
  }
  return children;
}

function readElement(der: Buffer, offset: number): DerElement {
  if (offset + 2 > der.length) throw new Error('DER: truncated element');
  const tag = der[offset];
  if ((tag & 0x1f) === 0x1f) throw new Error('DER: multi-byte tags are not supported');
  let length = der[offset + 1];
  let header = 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    // 0x80 alone is BER's indefinite length, never valid DER.
    if (octets === 0 || octets > 4) throw new Error('DER: bad length');
    if (offset + 2 + octets > der.length) throw new Error('DER: truncated length');
    length = der.readUIntBE(offset + 2, octets);
    header += octets;
  }
  const end = offset + header + length;
  if (end > der.length) throw new Error('DER: element runs past its container');
  return {
    tag,
    encoded: der.subarray(offset, end),
    contents: der.subarray(offset + header, end),
  };
}
