import { createPrivateKey, X509Certificate as NodeX509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// Tests only: an independent decoder, to check what src/server/pki/certificate.ts encodes.
import * as x509 from '@peculiar/x509';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/protocol/clock.js';
import {
  generateCertificateAuthority,
  generateServingCertificates,
  issueClientCertificate,
  loadCertificates,
  type ServingCertificates,
} from '../../../src/server/pki/tls.js';
import { withTempDir } from '../../helpers/lifecycle.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('generateServingCertificates', () => {
  let certs: ServingCertificates;
  const clock = new ManualClock(Date.UTC(2030, 0, 1));

  beforeAll(async () => {
    await generateServingCertificates({ hosts: [] }); // warm-up: first use pays for JIT and module init
    const started = performance.now();
    certs = await generateServingCertificates({
      hosts: ['api.example.test', '10.1.2.3', '[fd00::7]', 'localhost'],
      clock,
      validDays: 30,
    });
    console.log(`generateServingCertificates took ${(performance.now() - started).toFixed(1)} ms`);
  });

  it('makes a self-signed CA named watchmark-ca with CA constraints', () => {
    const ca = new x509.X509Certificate(certs.caCertPem);
    expect(ca.subject).toBe('CN=watchmark-ca');
    expect(ca.issuer).toBe(ca.subject);
    const bc = ca.getExtension(x509.BasicConstraintsExtension);
    expect(bc?.ca).toBe(true);
    expect(bc?.critical).toBe(true);
    const ku = ca.getExtension(x509.KeyUsagesExtension);
    expect(ku?.critical).toBe(true);
    expect(ku!.usages & x509.KeyUsageFlags.keyCertSign).toBeTruthy();
    expect(ku!.usages & x509.KeyUsageFlags.cRLSign).toBeTruthy();
    expect(new NodeX509Certificate(certs.caCertPem).ca).toBe(true);
  });

  it('signs a serving leaf with serverAuth, digitalSignature and linked key ids', async () => {
    const ca = new x509.X509Certificate(certs.caCertPem);
    const leaf = new x509.X509Certificate(certs.certPem);
    expect(leaf.issuer).toBe('CN=watchmark-ca');
    expect(await leaf.verify({ publicKey: ca.publicKey, signatureOnly: true })).toBe(true);
    expect(leaf.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(false);
    expect(leaf.getExtension(x509.KeyUsagesExtension)?.usages).toBe(x509.KeyUsageFlags.digitalSignature);
    expect(leaf.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([
      x509.ExtendedKeyUsage.serverAuth,
    ]);
    const caKeyId = ca.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
    expect(caKeyId).toMatch(/^[0-9a-f]+$/);
    expect(leaf.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId).toBe(caKeyId);
    expect(leaf.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId).not.toBe(caKeyId);
    expect(leaf.publicKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
  });

  it('covers the requested hosts and loopback, IPs as IP SANs and names as DNS SANs, once each', () => {
    const leaf = new x509.X509Certificate(certs.certPem);
    const san = leaf.getExtension(x509.SubjectAlternativeNameExtension)!.names.toJSON();
    expect(san.filter((n) => n.type === 'dns').map((n) => n.value)).toEqual([
      'localhost',
      'api.example.test',
    ]);
    const node = new NodeX509Certificate(certs.certPem);
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3', 'fd00::7']) expect(node.checkIP(ip)).toBe(ip);
    expect(node.checkHost('api.example.test')).toBe('api.example.test');
    expect(node.checkHost('localhost')).toBe('localhost');
    expect(node.checkHost('other.example.test')).toBeUndefined();
    expect(san.filter((n) => n.type === 'ip')).toHaveLength(4);
  });

  it('dates the validity from the injected clock, starting slightly in the past', () => {
    for (const pem of [certs.caCertPem, certs.certPem]) {
      const cert = new x509.X509Certificate(pem);
      expect(cert.notBefore.getTime()).toBeLessThan(clock.now());
      expect(cert.notBefore.getTime()).toBeGreaterThanOrEqual(clock.now() - 2 * 60 * 60 * 1000);
      expect(cert.notAfter.getTime()).toBe(Math.floor((clock.now() + 30 * DAY_MS) / 1000) * 1000);
    }
  });

  it('returns a PKCS#8 key that belongs to the leaf', async () => {
    expect(certs.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    await withTempDir('watchmark-tls-', async (dir) => {
      await writeFile(join(dir, 'tls.crt'), certs.certPem);
      await writeFile(join(dir, 'tls.key'), certs.keyPem);
      await expect(loadCertificates(join(dir, 'tls.crt'), join(dir, 'tls.key'))).resolves.toEqual({
        certPem: certs.certPem,
        keyPem: certs.keyPem,
      });
    });
  });

  it('is read by node (OpenSSL) as a CA and a leaf it issued and signed, for the leaf key', () => {
    const ca = new NodeX509Certificate(certs.caCertPem);
    const leaf = new NodeX509Certificate(certs.certPem);
    expect([ca.ca, leaf.ca]).toEqual([true, false]);
    expect(ca.checkIssued(ca)).toBe(true);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.verify(leaf.publicKey)).toBe(false);
    expect(leaf.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(leaf.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(leaf.checkPrivateKey(createPrivateKey(certs.keyPem))).toBe(true);
    expect(leaf.serialNumber).toMatch(/^[0-7][0-9A-F]{31}$/);
  });

  it('rejects a non-positive validity', async () => {
    await expect(generateServingCertificates({ hosts: [], validDays: 0 })).rejects.toThrow(/validDays/);
  });
});

describe('certificate encoding edge cases', () => {
  it('writes validity as UTCTime through 2049 and GeneralizedTime from 2050, in whole seconds', async () => {
    const clock = new ManualClock(Date.UTC(2049, 11, 31, 23, 0, 0, 500));
    const { certPem } = await generateServingCertificates({ hosts: [], clock, validDays: 3 });
    const node = new NodeX509Certificate(certPem);
    expect(new Date(node.validFrom).toISOString()).toBe('2049-12-31T22:00:00.000Z');
    expect(new Date(node.validTo).toISOString()).toBe('2050-01-03T23:00:00.000Z');
    const utcTime = Buffer.concat([Buffer.from([0x17, 13]), Buffer.from('491231220000Z')]);
    const generalizedTime = Buffer.concat([Buffer.from([0x18, 15]), Buffer.from('20500103230000Z')]);
    expect(node.raw.includes(utcTime)).toBe(true);
    expect(node.raw.includes(generalizedTime)).toBe(true);
  });

  it('encodes IPv6 SANs in all their spellings as 16 octets', async () => {
    const { certPem } = await generateServingCertificates({
      hosts: ['2001:db8::1:0:0:1', '::ffff:192.0.2.1', 'fe80::1%eth0', '[2001:DB8:0:0:0:0:0:2]'],
    });
    const node = new NodeX509Certificate(certPem);
    for (const ip of ['2001:db8:0:0:1:0:0:1', '::ffff:192.0.2.1', 'fe80::1', '2001:db8::2']) {
      expect(node.checkIP(ip), ip).toBe(ip);
    }
    expect(node.checkIP('2001:db8::3')).toBeUndefined();
    const san = new x509.X509Certificate(certPem).getExtension(x509.SubjectAlternativeNameExtension)!;
    expect(san.names.toJSON().filter((n) => n.type === 'ip')).toHaveLength(6);
  });

  it('refuses a DNS name that is not ASCII rather than encode an invalid IA5String', async () => {
    await expect(generateServingCertificates({ hosts: ['bücher.example'] })).rejects.toThrow(/xn--/);
  });

  it('keeps names that are not ASCII or contain separators in the subject, as UTF8String', async () => {
    const ca = await generateCertificateAuthority('Zürich CA');
    const client = await issueClientCertificate(ca, { commonName: 'jürgen', organizations: ['a, b+c'] });
    const cert = new x509.X509Certificate(client.certPem);
    expect(cert.subjectName.getField('CN')).toEqual(['jürgen']);
    expect(cert.subjectName.getField('O')).toEqual(['a, b+c']);
    expect(cert.issuerName.getField('CN')).toEqual(['Zürich CA']);
    expect(new NodeX509Certificate(client.certPem).checkIssued(ca.cert)).toBe(true);
  });
});
