/**
 * X.509 v3 certificates (RFC 5280) from node:crypto keys: the TBSCertificate
 * is DER-encoded by ./der.ts and signed ecdsa-with-SHA256 by `crypto.sign`.
 * It covers exactly what ./tls.ts issues (a CA, serving and client leaves);
 * the policy of what goes in each certificate lives there.
 *
 * Go's crypto/tls (kubectl, etcd) parses strictly, so the encodings follow
 * DER to the letter: DEFAULT values omitted, minimal integers, named bit
 * strings without trailing zero bits, and an issuer copied byte for byte
 * from the CA's own subject.
 */

import { createHash, type KeyObject, sign, type X509Certificate } from 'node:crypto';
import {
  bitString,
  boolean,
  childrenOf,
  explicit,
  implicitPrimitive,
  objectIdentifier,
  octetString,
  sequence,
  setOf,
  smallInteger,
  time,
  unsignedInteger,
  utf8String,
} from './der.js';

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

/** What a certificate says; `issuer` and `subject` are DER Names (see {@link distinguishedName}). */
export interface CertificateFields {
  /** Big-endian magnitude of a positive serial of at most 20 octets. */
  serialNumber: Uint8Array;
  issuer: Buffer;
  subject: Buffer;
  notBefore: Date;
  notAfter: Date;
  /** The certified key; its SubjectPublicKeyInfo is node's own DER export. */
  publicKey: KeyObject;
  /** The issuer's EC private key (the subject's own for a self-signed certificate). */
  signingKey: KeyObject;
  /** DER Extensions, made by the functions below. */
  extensions: Buffer[];
}

/** Encodes and signs `fields`, returning the certificate in PEM. */
export function signCertificate(fields: CertificateFields): string {
  if (fields.signingKey.asymmetricKeyType !== 'ec') {
    throw new TypeError(
      `signCertificate: expected an EC signing key, got ${fields.signingKey.asymmetricKeyType}`,
    );
  }
  const algorithm = sequence(objectIdentifier(OID.ecdsaWithSha256));
  const tbs = sequence(
    explicit(0, smallInteger(2)), // v3: the only version that carries extensions
    unsignedInteger(fields.serialNumber),
    algorithm,
    fields.issuer,
    sequence(time(fields.notBefore), time(fields.notAfter)),
    fields.subject,
    fields.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...fields.extensions)),
  );
  const signature = sign('sha256', tbs, { key: fields.signingKey, dsaEncoding: 'der' });
  return pem('CERTIFICATE', sequence(tbs, algorithm, bitString(signature)));
}

/** A Name with one attribute per RDN, in order: a CN and any number of O (organization). */
export function distinguishedName(attributes: Array<{ CN: string } | { O: string }>): Buffer {
  return sequence(
    ...attributes.map((attribute) => {
      const [oid, value] =
        'CN' in attribute ? [OID.commonName, attribute.CN] : [OID.organization, attribute.O];
      return setOf(sequence(objectIdentifier(oid), utf8String(value)));
    }),
  );
}

/** The subject Name of `cert` exactly as encoded, to become the issuer of what it signs. */
export function subjectOf(cert: X509Certificate): Buffer {
  const [tbs] = childrenOf(cert.raw);
  const fields = childrenOf(tbs.encoded);
  // version [0], serialNumber, signature, issuer, validity, subject: the version is optional.
  const first = fields[0].tag === 0xa0 ? 1 : 0;
  return fields[first + 4].encoded;
}

/** RFC 5280 §4.2.1.2 method 1: the SHA-1 of the subjectPublicKey bits (what Go and OpenSSL use). */
export function keyIdentifier(publicKey: KeyObject): Buffer {
  const [, subjectPublicKey] = childrenOf(publicKey.export({ type: 'spki', format: 'der' }));
  // The first content octet counts the BIT STRING's unused bits (0 for a key).
  return createHash('sha1').update(subjectPublicKey.contents.subarray(1)).digest();
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  // critical is BOOLEAN DEFAULT FALSE: DER leaves a default out.
  return sequence(objectIdentifier(oid), ...(critical ? [boolean(true)] : []), octetString(value));
}

/** basicConstraints, critical: a CA that may sign only leaves (pathLen 0), or an end entity. */
export function basicConstraints(isCa: boolean): Buffer {
  return extension(OID.basicConstraints, true, isCa ? sequence(boolean(true), smallInteger(0)) : sequence());
}

/** The keyUsage bits ./tls.ts uses, by their RFC 5280 bit number. */
export const KeyUsage = { digitalSignature: 0, keyCertSign: 5, cRLSign: 6 } as const;

/** keyUsage, critical, as a named bit list: bit 0 is the first octet's top bit. */
export function keyUsage(bits: number[]): Buffer {
  if (bits.length === 0) throw new RangeError('keyUsage: at least one bit must be set');
  const last = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(last / 8) + 1);
  for (const bit of bits) bytes[bit >> 3] |= 0x80 >> (bit & 7);
  // DER drops trailing zero bits, so the padding ends right after the last set bit.
  return extension(OID.keyUsage, true, bitString(bytes, 7 - (last & 7)));
}

/** extKeyUsage, non-critical: what the leaf is for. */
export function extKeyUsage(usage: 'serverAuth' | 'clientAuth'): Buffer {
  return extension(OID.extKeyUsage, false, sequence(objectIdentifier(OID[usage])));
}

/** A subjectAltName entry: a DNS name, or the 4 or 16 octets of an IP address. */
export type AltName = { dns: string } | { ip: Buffer };

/** subjectAltName, non-critical (the subject is never empty): dNSName [2] and iPAddress [7] entries. */
export function subjectAltName(names: AltName[]): Buffer {
  const generalNames = names.map((name) =>
    'ip' in name ? implicitPrimitive(7, name.ip) : implicitPrimitive(2, ia5(name.dns)),
  );
  return extension(OID.subjectAltName, false, sequence(...generalNames));
}

export function subjectKeyIdentifier(keyId: Buffer): Buffer {
  return extension(OID.subjectKeyIdentifier, false, octetString(keyId));
}

/** authorityKeyIdentifier with only keyIdentifier [0]: how Go finds the issuer among several CAs. */
export function authorityKeyIdentifier(keyId: Buffer): Buffer {
  return extension(OID.authorityKeyIdentifier, false, sequence(implicitPrimitive(0, keyId)));
}

/** A dNSName is an IA5String: ASCII only (an internationalized name must come in its xn-- form). */
function ia5(name: string): Buffer {
  if (!/^\p{ASCII}*$/u.test(name)) throw new RangeError(`DNS name ${name} is not ASCII; use its xn-- form`);
  return Buffer.from(name, 'ascii');
}

/** PEM armour: base64 in 64-character lines (RFC 7468), ending with a newline like OpenSSL's. */
function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
