/**
 * Known-answer tests for the DER writer and reader and the certificate
 * pieces built on them. The expected bytes are worked out from X.690's rules,
 * and the extension ones are those @peculiar/x509 (the library this code
 * replaced) wrote for the same values; none is read off the code's output.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { basicConstraints, KeyUsage, keyIdentifier, keyUsage } from '../../../src/server/pki/certificate.js';
import {
  bitString,
  childrenOf,
  objectIdentifier,
  octetString,
  sequence,
  setOf,
  smallInteger,
  time,
  unsignedInteger,
  utf8String,
} from '../../../src/server/pki/der.js';

const hex = (b: Buffer) => b.toString('hex');

describe('DER writer', () => {
  it('writes INTEGERs in the minimal two-complement form', () => {
    expect(hex(smallInteger(0))).toBe('020100');
    expect(hex(smallInteger(2))).toBe('020102');
    expect(hex(smallInteger(0x7f))).toBe('02017f');
    expect(hex(smallInteger(0x80))).toBe('02020080'); // a set top bit needs a zero octet in front
    expect(hex(smallInteger(0x100))).toBe('02020100');
    expect(hex(unsignedInteger(Buffer.from('00007f01', 'hex')))).toBe('02027f01'); // leading zeros dropped
    expect(hex(unsignedInteger(Buffer.from('ff', 'hex')))).toBe('020200ff');
    expect(() => smallInteger(-1)).toThrow(RangeError);
  });

  it('writes lengths in short form below 128 and long form from there', () => {
    expect(hex(octetString(Buffer.alloc(127))).slice(0, 4)).toBe('047f');
    expect(hex(octetString(Buffer.alloc(128))).slice(0, 6)).toBe('048180');
    expect(hex(octetString(Buffer.alloc(300))).slice(0, 8)).toBe('0482012c');
  });

  it('writes OBJECT IDENTIFIERs with the first two arcs joined and base-128 arcs', () => {
    expect(hex(objectIdentifier('1.2.840.10045.4.3.2'))).toBe('06082a8648ce3d040302'); // ecdsa-with-SHA256
    expect(hex(objectIdentifier('2.5.29.17'))).toBe('0603551d11'); // subjectAltName
    expect(hex(objectIdentifier('1.3.6.1.5.5.7.3.1'))).toBe('06082b06010505070301'); // serverAuth
    expect(() => objectIdentifier('1')).toThrow(RangeError);
  });

  it('writes strings, bit strings and sets', () => {
    expect(hex(utf8String('jü'))).toBe('0c036ac3bc');
    expect(hex(bitString(Buffer.from([0x80]), 7))).toBe('03020780');
    // SET OF sorts its elements by encoding.
    expect(hex(setOf(smallInteger(3), smallInteger(1)))).toBe('3106020101020103');
    expect(hex(sequence())).toBe('3000');
  });

  it('writes UTCTime through 2049 and GeneralizedTime from 2050, dropping milliseconds', () => {
    expect(time(new Date(Date.UTC(2049, 11, 31, 23, 59, 59, 999))).toString('latin1')).toBe(
      '\x17\x0d491231235959Z',
    );
    expect(time(new Date(Date.UTC(2050, 0, 1))).toString('latin1')).toBe('\x18\x0f20500101000000Z');
    expect(time(new Date(Date.UTC(1999, 5, 7, 8, 9, 10))).toString('latin1')).toBe('\x17\x0d990607080910Z');
    expect(() => time(new Date(Date.UTC(10000, 0, 1)))).toThrow(RangeError);
  });
});

describe('DER reader', () => {
  it('reads back the elements of a SEQUENCE, long lengths included', () => {
    const long = octetString(Buffer.alloc(300, 7));
    const children = childrenOf(sequence(smallInteger(5), long, utf8String('x')));
    expect(children.map((c) => c.tag)).toEqual([0x02, 0x04, 0x0c]);
    expect(children[1].contents).toEqual(Buffer.alloc(300, 7));
    expect(children[1].encoded).toEqual(long);
  });

  it('refuses indefinite lengths, truncation and primitive containers', () => {
    expect(() => childrenOf(Buffer.from('3080020100000', 'hex'))).toThrow(/bad length/);
    expect(() => childrenOf(Buffer.from('3005020100', 'hex'))).toThrow(/runs past/);
    expect(() => childrenOf(smallInteger(1))).toThrow(/not constructed/);
  });
});

describe('certificate pieces', () => {
  it('encodes key usage as a named bit list without trailing zero bits', () => {
    // extnID keyUsage, critical TRUE, OCTET STRING { BIT STRING }: as OpenSSL writes them.
    expect(hex(keyUsage([KeyUsage.digitalSignature]))).toBe('300e0603551d0f0101ff040403020780');
    expect(hex(keyUsage([KeyUsage.keyCertSign, KeyUsage.cRLSign, KeyUsage.digitalSignature]))).toBe(
      '300e0603551d0f0101ff040403020186',
    );
  });

  it('encodes basic constraints with cA and pathLen 0 for a CA, empty for a leaf', () => {
    expect(hex(basicConstraints(true))).toBe('30120603551d130101ff040830060101ff020100');
    expect(hex(basicConstraints(false))).toBe('300c0603551d130101ff04023000');
  });

  it('derives the key identifier from the public key bits (RFC 5280 method 1)', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const spki = publicKey.export({ type: 'spki', format: 'der' });
    // A P-256 SPKI ends with the 65-octet uncompressed point that the BIT STRING holds.
    const point = spki.subarray(spki.length - 65);
    expect(keyIdentifier(publicKey)).toEqual(createHash('sha1').update(point).digest());
  });
});
