import { X509Certificate as NodeX509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
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
import {
  type CertificateAuthority,
  generateCertificateAuthority,
  generateServingCertificates,
  issueClientCertificate,
  type ServingCertificates,
} from '../../../src/server/pki/tls.js';

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
