import { createPrivateKey, X509Certificate as NodeX509Certificate } from 'node:crypto';
import { chmod, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  type ConnectionOptions,
  connect,
  createServer as createTlsServer,
  type TLSSocket,
  type Server as TlsServer,
} from 'node:tls';
// Tests only: an independent decoder, to check what src/server/pki/certificate.ts encodes.
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/protocol/clock.js';
import {
  type CertificateAuthority,
  generateCertificateAuthority,
  generateServingCertificates,
  issueClientCertificate,
  loadCertificates,
  type ServingCertificates,
  TlsFileError,
} from '../../../src/server/pki/tls.js';
import { tempDirForFile, withTempDir } from '../../helpers/lifecycle.js';

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

describe('a real https server with the generated certificate', () => {
  let server: Server;
  let port: number;
  let certs: ServingCertificates;

  beforeAll(async () => {
    certs = await generateServingCertificates({ hosts: ['api.example.test'] });
    server = createServer({ cert: certs.certPem, key: certs.keyPem }, (_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  });

  /** GETs / and resolves with the status code, or rejects with the TLS error code. */
  function get(opts: { ca?: string; servername?: string }): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', agent: false, ...opts }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('is trusted by a client holding the CA, by IP and by DNS name', async () => {
    await expect(get({ ca: certs.caCertPem })).resolves.toBe(200);
    await expect(get({ ca: certs.caCertPem, servername: 'api.example.test' })).resolves.toBe(200);
    await expect(get({ ca: certs.caCertPem, servername: 'localhost' })).resolves.toBe(200);
  });

  it('fails verification without the CA', async () => {
    await expect(get({})).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
  });

  it('fails verification for a name outside the SANs', async () => {
    await expect(get({ ca: certs.caCertPem, servername: 'evil.example.test' })).rejects.toMatchObject({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
  });

  it('fails verification against a different CA', async () => {
    const other = await generateServingCertificates({ hosts: [] });
    await expect(get({ ca: other.caCertPem })).rejects.toMatchObject({
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
  });
});

describe('issueClientCertificate', () => {
  it('puts the user in CN and groups in O, with clientAuth usage, signed by the CA', async () => {
    const ca = await generateCertificateAuthority('test-client-ca');
    const client = await issueClientCertificate(ca, { commonName: 'alice', organizations: ['dev', 'ops'] });
    const cert = new x509.X509Certificate(client.certPem);
    expect(cert.subjectName.getField('CN')).toEqual(['alice']);
    expect(cert.subjectName.getField('O')).toEqual(['dev', 'ops']);
    expect(cert.issuer).toBe('CN=test-client-ca');
    expect(cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([
      x509.ExtendedKeyUsage.clientAuth,
    ]);
    expect(
      new NodeX509Certificate(client.certPem).verify(new NodeX509Certificate(ca.certPem).publicKey),
    ).toBe(true);
  });
});

describe('loadCertificates', () => {
  let dir: string;
  let certs: ServingCertificates;
  let certFile: string;
  let keyFile: string;

  const tempDir = tempDirForFile('watchmark-load-');
  beforeAll(async () => {
    dir = tempDir();
    certs = await generateServingCertificates({ hosts: [] });
    certFile = join(dir, 'tls.crt');
    keyFile = join(dir, 'tls.key');
    await writeFile(certFile, certs.certPem);
    await writeFile(keyFile, certs.keyPem);
  });

  it('names the flag and path of a missing file', async () => {
    const missing = join(dir, 'nope.crt');
    const err = await loadCertificates(missing, keyFile).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TlsFileError);
    expect((err as Error).message).toBe(`--tls-cert-file ${missing}: no such file`);
    await expect(loadCertificates(certFile, join(dir, 'nope.key'))).rejects.toThrow(
      `--tls-private-key-file ${join(dir, 'nope.key')}: no such file`,
    );
  });

  it('explains a directory, an unreadable file and a file without PEM', async () => {
    await expect(loadCertificates(dir, keyFile)).rejects.toThrow(`--tls-cert-file ${dir}: is a directory`);
    const junk = join(dir, 'junk.crt');
    await writeFile(junk, 'not a certificate\n');
    await expect(loadCertificates(junk, keyFile)).rejects.toThrow(
      `--tls-cert-file ${junk}: no PEM data found`,
    );
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked.key');
      await writeFile(locked, certs.keyPem);
      await chmod(locked, 0o000);
      await expect(loadCertificates(certFile, locked)).rejects.toThrow(
        `--tls-private-key-file ${locked}: permission denied`,
      );
    }
  });

  it('catches swapped files and a key of another certificate', async () => {
    await expect(loadCertificates(keyFile, certFile)).rejects.toThrow(
      `--tls-cert-file ${keyFile}: does not contain a valid PEM certificate`,
    );
    const otherKey = join(dir, 'other.key');
    await writeFile(otherKey, (await generateServingCertificates({ hosts: [] })).keyPem);
    await expect(loadCertificates(certFile, otherKey)).rejects.toThrow(
      /private key does not match the certificate/,
    );
  });
});

describe('a TLS server that requires client certificates (mutual TLS)', () => {
  let serving: ServingCertificates;
  let clientCa: CertificateAuthority;
  const servers: TlsServer[] = [];

  beforeAll(async () => {
    serving = await generateServingCertificates({ hosts: [] });
    clientCa = await generateCertificateAuthority('test-client-ca');
  });

  afterAll(async () => {
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /**
   * A server with the serving certificate that asks for a client certificate issued by
   * `trustedCaPem`. It does not hang up on a bad one itself (rejectUnauthorized), which
   * would drop OpenSSL's reason; each connection's verdict is read off the socket instead.
   */
  async function mutualTlsServer(trustedCaPem: string): Promise<{ server: TlsServer; port: number }> {
    const server = createTlsServer(
      {
        cert: serving.certPem,
        key: serving.keyPem,
        ca: trustedCaPem,
        requestCert: true,
        rejectUnauthorized: false,
      },
      (socket) => socket.end(),
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as AddressInfo).port };
  }

  /**
   * Connects with `client` credentials and resolves with the server's verdict: `accepted` and the
   * peer's subject, or `rejected` and OpenSSL's reason. Under TLS 1.3 the client's own handshake
   * completes before the server has judged its certificate, so only the server side can tell.
   */
  async function verdict(
    target: { server: TlsServer; port: number },
    client: Pick<ConnectionOptions, 'cert' | 'key'>,
  ): Promise<string> {
    const judged = new Promise<string>((resolve, reject) => {
      const failed = (err: Error) => {
        target.server.off('secureConnection', judge);
        reject(err);
      };
      const judge = (socket: TLSSocket) => {
        target.server.off('tlsClientError', failed);
        if (!socket.authorized) return resolve(`rejected: ${socket.authorizationError}`);
        const { CN, O } = socket.getPeerCertificate().subject;
        resolve(`accepted CN=${CN} O=${[O ?? []].flat().join(',')}`);
      };
      target.server.once('secureConnection', judge);
      target.server.once('tlsClientError', failed);
    });
    const socket = connect({
      host: '127.0.0.1',
      port: target.port,
      ca: serving.caCertPem,
      servername: 'localhost',
      ...client,
    });
    const closed = new Promise<void>((resolve, reject) => {
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    socket.resume();
    const [result] = await Promise.all([judged, closed]);
    return result;
  }

  it('accepts a client certificate its CA issued and sees its CN and O', async () => {
    const target = await mutualTlsServer(clientCa.certPem);
    const alice = await issueClientCertificate(clientCa, {
      commonName: 'alice',
      organizations: ['dev', 'ops'],
    });
    expect(await verdict(target, { cert: alice.certPem, key: alice.keyPem })).toBe(
      'accepted CN=alice O=dev,ops',
    );
  });

  it('turns down a certificate from another CA of the same name, and a client without one', async () => {
    const target = await mutualTlsServer(clientCa.certPem);
    const rogueCa = await generateCertificateAuthority('test-client-ca');
    const mallory = await issueClientCertificate(rogueCa, { commonName: 'mallory' });
    expect(await verdict(target, { cert: mallory.certPem, key: mallory.keyPem })).toBe(
      'rejected: UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    );
    expect(await verdict(target, {})).toBe('rejected: UNABLE_TO_GET_ISSUER_CERT');
  });

  it('turns down a serverAuth-only leaf presented as a client certificate (the EKU is read)', async () => {
    const target = await mutualTlsServer(serving.caCertPem);
    expect(await verdict(target, { cert: serving.certPem, key: serving.keyPem })).toBe(
      'rejected: INVALID_PURPOSE',
    );
  });
});
