/**
 * Serving certificates for the API server: a throwaway CA plus a leaf signed by
 * it (what `watchmark serve` uses when no `--tls-cert-file` is given), loading
 * operator-supplied PEM files, and issuing client certificates for x509 auth.
 *
 * kubectl sends credentials only over TLS (see kubectl-needs.md §1), so every
 * authenticated setup goes through here. Keys are EC P-256 from node:crypto;
 * certificates are DER-encoded by ./certificate.ts and signed by node:crypto.
 * No certificate library, for the import cost: @peculiar/x509 loaded ~145
 * modules, so a default (TLS) `startServer()` took 200-340 ms where issue #11
 * allows 100 ms for import + start; generating both certificates now takes
 * a few milliseconds.
 */

import {
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  X509Certificate,
} from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Clock } from '../../protocol/clock.js';
import {
  type AltName,
  authorityKeyIdentifier,
  basicConstraints,
  distinguishedName,
  extKeyUsage,
  KeyUsage,
  keyIdentifier,
  keyUsage,
  signCertificate,
  subjectAltName,
  subjectKeyIdentifier,
  subjectOf,
} from './certificate.js';
import { ipAddressOctets } from './ip-address.js';

/** PEM text of a generated CA and the serving certificate it signed. */
export interface ServingCertificates {
  /** The self-signed CA; clients put this in `certificate-authority-data`. */
  caCertPem: string;
  /** The serving certificate (leaf only). */
  certPem: string;
  /** The serving certificate's PKCS#8 private key. */
  keyPem: string;
}

/** Options for {@link generateServingCertificates}. */
export interface ServingCertificateOptions {
  /** Host names and IP addresses clients will dial; 127.0.0.1, ::1 and localhost are always added. */
  hosts: string[];
  /** Time source for the validity window; the system clock by default. */
  clock?: Pick<Clock, 'now'>;
  /** Validity in days from now; 365 by default. */
  validDays?: number;
}

/** A CA able to sign further certificates, as returned by {@link generateCertificateAuthority}. */
export interface CertificateAuthority {
  /** The CA certificate in PEM. */
  certPem: string;
  /** The CA's PKCS#8 private key in PEM. */
  keyPem: string;
  /** The parsed certificate: its subject becomes the issuer, its key the authority key id. */
  cert: X509Certificate;
  /** The signing key. */
  privateKey: KeyObject;
}

/** Options for {@link issueClientCertificate}. */
export interface ClientCertificateOptions {
  /** Subject CN: becomes the user name under kube-apiserver's x509 authenticator. */
  commonName: string;
  /** Subject O values: become the user's groups. */
  organizations?: string[];
  /** Time source for the validity window; the system clock by default. */
  clock?: Pick<Clock, 'now'>;
  /** Validity in days from now; 365 by default. */
  validDays?: number;
}

/** A client certificate and its key, PEM encoded. */
export interface ClientCertificate {
  certPem: string;
  keyPem: string;
}

/** PEM text read by {@link loadCertificates}. */
export interface LoadedCertificates {
  certPem: string;
  keyPem: string;
}

/** A `--tls-cert-file` / `--tls-private-key-file` that cannot be used; the message names flag and path. */
export class TlsFileError extends Error {
  override name = 'TlsFileError';
  constructor(
    /** The command-line flag the path came from. */
    readonly flag: string,
    /** The offending path. */
    readonly path: string,
    problem: string,
  ) {
    super(`${flag} ${path}: ${problem}`);
  }
}

/** Hosts every serving certificate covers, so local clients work whatever address they pick. */
const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'];

/** Back-dates notBefore so a client whose clock runs a little behind still accepts a fresh cert (client-go does the same). */
const CLOCK_SKEW_MS = 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Creates a self-signed CA (basicConstraints CA, keyCertSign/cRLSign) named `commonName`. */
export async function generateCertificateAuthority(
  commonName = 'watchmark-ca',
  opts: { clock?: Pick<Clock, 'now'>; validDays?: number } = {},
): Promise<CertificateAuthority> {
  const { notBefore, notAfter } = validity(opts.clock, opts.validDays);
  const keys = generateKeyPair();
  const name = distinguishedName([{ CN: commonName }]);
  const certPem = signCertificate({
    serialNumber: serialNumber(),
    issuer: name,
    subject: name,
    notBefore,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    extensions: [
      basicConstraints(true), // pathLen 0: this CA signs leaves only, never another CA.
      keyUsage([KeyUsage.keyCertSign, KeyUsage.cRLSign, KeyUsage.digitalSignature]),
      subjectKeyIdentifier(keyIdentifier(keys.publicKey)),
    ],
  });
  return {
    certPem,
    keyPem: privateKeyPem(keys.privateKey),
    cert: new X509Certificate(certPem),
    privateKey: keys.privateKey,
  };
}

/**
 * Generates a fresh CA (CN `watchmark-ca`) and a serving certificate signed by it
 * whose SANs cover `hosts` plus the loopback names.
 */
export async function generateServingCertificates(
  opts: ServingCertificateOptions,
): Promise<ServingCertificates> {
  const ca = await generateCertificateAuthority('watchmark-ca', opts);
  const leaf = signLeaf(ca, {
    subject: distinguishedName([{ CN: 'watchmark' }]),
    usage: 'serverAuth',
    extensions: [subjectAltName(subjectAltNames(opts.hosts))],
    clock: opts.clock,
    validDays: opts.validDays,
  });
  return { caCertPem: ca.certPem, ...leaf };
}

/**
 * Issues a client certificate (clientAuth EKU) signed by `ca`. Under x509
 * authentication its CN is the user name and its O values are the groups.
 */
export async function issueClientCertificate(
  ca: CertificateAuthority,
  opts: ClientCertificateOptions,
): Promise<ClientCertificate> {
  return signLeaf(ca, {
    subject: distinguishedName([{ CN: opts.commonName }, ...(opts.organizations ?? []).map((O) => ({ O }))]),
    usage: 'clientAuth',
    clock: opts.clock,
    validDays: opts.validDays,
  });
}

/** A new key pair and an end-entity certificate for it, signed by `ca`, for one extended key usage. */
function signLeaf(
  ca: CertificateAuthority,
  leaf: {
    subject: Buffer;
    usage: 'serverAuth' | 'clientAuth';
    extensions?: Buffer[];
    clock?: Pick<Clock, 'now'>;
    validDays?: number;
  },
): ClientCertificate {
  const { notBefore, notAfter } = validity(leaf.clock, leaf.validDays);
  const keys = generateKeyPair();
  const certPem = signCertificate({
    serialNumber: serialNumber(),
    issuer: subjectOf(ca.cert),
    subject: leaf.subject,
    notBefore,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: ca.privateKey,
    extensions: [
      basicConstraints(false),
      keyUsage([KeyUsage.digitalSignature]),
      extKeyUsage(leaf.usage),
      ...(leaf.extensions ?? []),
      subjectKeyIdentifier(keyIdentifier(keys.publicKey)),
      authorityKeyIdentifier(keyIdentifier(ca.cert.publicKey)),
    ],
  });
  return { certPem, keyPem: privateKeyPem(keys.privateKey) };
}

/**
 * Reads `--tls-cert-file` and `--tls-private-key-file`, checking that each holds
 * the right PEM block and that the key belongs to the (first) certificate, so a
 * mix-up fails at startup with the path in the message rather than at the first handshake.
 */
export async function loadCertificates(certFile: string, keyFile: string): Promise<LoadedCertificates> {
  const certPem = await readPem('--tls-cert-file', certFile);
  const keyPem = await readPem('--tls-private-key-file', keyFile);
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(certPem);
  } catch {
    throw new TlsFileError('--tls-cert-file', certFile, 'does not contain a valid PEM certificate');
  }
  if (!/-----BEGIN (?:RSA |EC )?PRIVATE KEY-----/.test(keyPem)) {
    throw new TlsFileError('--tls-private-key-file', keyFile, 'does not contain a PEM private key');
  }
  let matches: boolean;
  try {
    matches = leaf.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    throw new TlsFileError('--tls-private-key-file', keyFile, 'does not contain a valid PEM private key');
  }
  if (!matches) {
    throw new TlsFileError(
      '--tls-private-key-file',
      keyFile,
      `private key does not match the certificate in ${certFile}`,
    );
  }
  return { certPem, keyPem };
}

async function readPem(flag: string, path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new TlsFileError(flag, path, describeFsError(err));
  }
  if (!text.includes('-----BEGIN ')) throw new TlsFileError(flag, path, 'no PEM data found');
  return text;
}

/** Turns the usual fs error codes into the short phrases an operator expects. */
function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

/** SAN entries for `hosts` plus loopback, deduplicated; IP literals become IP SANs, the rest DNS SANs. */
function subjectAltNames(hosts: string[]): AltName[] {
  const seen = new Set<string>();
  const names: AltName[] = [];
  for (const raw of [...LOOPBACK_HOSTS, ...hosts]) {
    // Accept the bracketed IPv6 form people copy out of URLs.
    const host = raw.trim().replace(/^\[(.*)\]$/, '$1');
    if (host === '') continue;
    const ip = ipAddressOctets(host);
    const key = ip ? `ip:${ip.toString('hex')}` : `dns:${host.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    names.push(ip ? { ip } : { dns: host });
  }
  return names;
}

function validity(
  clock: Pick<Clock, 'now'> | undefined,
  validDays = 365,
): { notBefore: Date; notAfter: Date } {
  if (!(validDays > 0)) throw new RangeError(`validDays must be positive, got ${validDays}`);
  const now = clock ? clock.now() : Date.now();
  return { notBefore: new Date(now - CLOCK_SKEW_MS), notAfter: new Date(now + validDays * DAY_MS) };
}

/** 16 random bytes with the top bit clear: unique, positive, and within RFC 5280's 20-octet limit. */
function serialNumber(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] & 0x7f) | 0x01;
  return bytes;
}

/**
 * ECDSA P-256: small, and accepted by Go's crypto/tls (kubectl). Generated
 * synchronously: a P-256 key takes well under a millisecond, less than the
 * thread-pool hop of the async form.
 */
function generateKeyPair(): { publicKey: KeyObject; privateKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

function privateKeyPem(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }) as string;
}
