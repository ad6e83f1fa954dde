/**
 * PKCS#10 certificate signing requests (RFC 2986) read and their signature checked with
 * node:crypto, as Go's crypto/x509 `ParseCertificateRequest` and `CheckSignature` do for
 * kube-apiserver's CSR validation (pkg/apis/certificates/validation `validateCSR`). Errors carry
 * Go's words where a client can meet them (a truncated or padded request, a bad signature); a
 * request Go would read but this cannot (an unusual key or signature algorithm) is accepted.
 */

import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { childrenOf, type DerElement } from './der.js';

/** What a parsed request holds that its checks need. */
export interface CertificateRequest {
  /** The DER of CertificationRequestInfo: what the signature covers. */
  info: Buffer;
  /** The subject's SubjectPublicKeyInfo, as a key (undefined when node:crypto cannot read it). */
  publicKey: KeyObject | undefined;
  /** The signature algorithm's OID, dotted. */
  signatureAlgorithm: string;
  signature: Buffer;
}

/** An error in Go's words (asn1.SyntaxError, x509's errors), for a field error's detail. */
export class CsrError extends Error {}

const SEQUENCE = 0x30;

/** The one element `der` starts with, with Go's asn1 errors for a truncated one. */
function readOne(der: Buffer): DerElement & { rest: Buffer } {
  if (der.length < 2) throw new CsrError('asn1: syntax error: truncated tag or length');
  const tag = der[0];
  let length = der[1];
  let header = 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (der.length < 2 + octets) throw new CsrError('asn1: syntax error: truncated tag or length');
    if (octets === 0) throw new CsrError('asn1: syntax error: indefinite length found (not DER)');
    if (octets > 4) throw new CsrError('asn1: structure error: length too large');
    length = der.readUIntBE(2, octets);
    header += octets;
  }
  if (der.length < header + length) throw new CsrError('asn1: syntax error: data truncated');
  return {
    tag,
    encoded: der.subarray(0, header + length),
    contents: der.subarray(header, header + length),
    rest: der.subarray(header + length),
  };
}

/** The dotted form of an OBJECT IDENTIFIER's contents. */
function oidText(contents: Buffer): string {
  const arcs: number[] = [];
  let value = 0;
  for (const byte of contents) {
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      if (arcs.length === 0)
        arcs.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else arcs.push(value);
      value = 0;
    }
  }
  return arcs.join('.');
}

/** x509.ParseCertificateRequest: the request's parts, or a {@link CsrError}. */
export function parseCertificateRequest(der: Buffer): CertificateRequest {
  const outer = readOne(der);
  if (outer.rest.length > 0) throw new CsrError('asn1: syntax error: trailing data');
  if (outer.tag !== SEQUENCE) throw new CsrError("asn1: structure error: tags don't match");
  let parts: DerElement[];
  let infoParts: DerElement[];
  try {
    parts = childrenOf(outer.encoded);
    infoParts = parts.length === 3 && parts[0].tag === SEQUENCE ? childrenOf(parts[0].encoded) : [];
  } catch {
    throw new CsrError('asn1: syntax error: data truncated');
  }
  if (parts.length < 3 || parts[0].tag !== SEQUENCE || parts[1].tag !== SEQUENCE || parts[2].tag !== 0x03) {
    throw new CsrError('asn1: structure error: sequence truncated');
  }
  if (infoParts.length < 3) throw new CsrError('asn1: structure error: sequence truncated');
  const spki = infoParts[2];
  let publicKey: KeyObject | undefined;
  try {
    publicKey = createPublicKey({ key: spki.encoded, format: 'der', type: 'spki' });
  } catch {
    publicKey = undefined;
  }
  const algorithm = childrenOf(parts[1].encoded)[0];
  const bits = parts[2].contents;
  return {
    info: parts[0].encoded,
    publicKey,
    signatureAlgorithm: algorithm?.tag === 0x06 ? oidText(algorithm.contents) : '',
    // A BIT STRING's first octet counts its unused bits; signatures use whole octets.
    signature: bits.subarray(1),
  };
}

/** Signature algorithms by OID: the digest node:crypto verifies with, and the key type. */
const SIGNATURE_ALGORITHMS: Readonly<Record<string, { hash: string | null; key: 'rsa' | 'ec' | 'ed25519' }>> =
  {
    '1.2.840.113549.1.1.5': { hash: 'sha1', key: 'rsa' },
    '1.2.840.113549.1.1.11': { hash: 'sha256', key: 'rsa' },
    '1.2.840.113549.1.1.12': { hash: 'sha384', key: 'rsa' },
    '1.2.840.113549.1.1.13': { hash: 'sha512', key: 'rsa' },
    '1.2.840.10045.4.1': { hash: 'sha1', key: 'ec' },
    '1.2.840.10045.4.3.2': { hash: 'sha256', key: 'ec' },
    '1.2.840.10045.4.3.3': { hash: 'sha384', key: 'ec' },
    '1.2.840.10045.4.3.4': { hash: 'sha512', key: 'ec' },
    '1.3.101.112': { hash: null, key: 'ed25519' },
  };

/** CertificateRequest.CheckSignature: throws a {@link CsrError} in Go's words when it does not verify. */
export function checkRequestSignature(csr: CertificateRequest): void {
  const algorithm = SIGNATURE_ALGORITHMS[csr.signatureAlgorithm];
  // An algorithm Go verifies and this table lacks (RSA-PSS) is given the benefit of the doubt.
  if (!algorithm || !csr.publicKey) return;
  const keyType = csr.publicKey.asymmetricKeyType;
  if (keyType !== algorithm.key) {
    throw new CsrError(
      'x509: signature algorithm specifies an ' +
        keyTypeName(algorithm.key) +
        ' public key, but have public key of type ' +
        goKeyType(keyType),
    );
  }
  let ok = false;
  try {
    ok = verify(algorithm.hash, csr.info, csr.publicKey, csr.signature);
  } catch {
    ok = false;
  }
  if (ok) return;
  switch (algorithm.key) {
    case 'rsa':
      throw new CsrError('crypto/rsa: verification error');
    case 'ec':
      throw new CsrError('x509: ECDSA verification failure');
    default:
      throw new CsrError('x509: Ed25519 verification failure');
  }
}

function keyTypeName(key: 'rsa' | 'ec' | 'ed25519'): string {
  return key === 'rsa' ? 'RSA' : key === 'ec' ? 'ECDSA' : 'Ed25519';
}

function goKeyType(keyType: string | undefined): string {
  return keyType === 'rsa' ? '*rsa.PublicKey' : keyType === 'ec' ? '*ecdsa.PublicKey' : 'ed25519.PublicKey';
}
