import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateServingCertificates, type ServingCertificates } from '../../../src/server/pki/tls.js';

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
