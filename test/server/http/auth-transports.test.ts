import { createServer as createHttpServer } from 'node:http';
import { createServer, request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { Authenticator, generateToken } from '../../../src/server/http/auth.js';
import {
  generateCertificateAuthority,
  generateServingCertificates,
  issueClientCertificate,
} from '../../../src/server/pki/tls.js';
import { close, handler, listen, UNAUTHORIZED_BODY } from './auth-fixture.js';

describe('Authenticator on other transports and modes', () => {
  it('cannot authenticate anyone over plain http by certificate, and tokens still work', async () => {
    const token = generateToken();
    const authenticator = new Authenticator({
      tokens: new Map([[token, { name: 'admin', groups: [] }]]),
      clientCA: (await generateCertificateAuthority()).certPem,
    });
    const server = createHttpServer(handler(authenticator));
    const port = await listen(server);
    try {
      const fetchStatus = (headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${port}/version`, { headers }).then(async (r) => ({
          status: r.status,
          body: await r.text(),
        }));
      expect(await fetchStatus({})).toEqual({ status: 401, body: UNAUTHORIZED_BODY });
      expect(await fetchStatus({ Authorization: 'Basic YWRtaW46eA==' })).toMatchObject({ status: 401 });
      expect(await fetchStatus({ Authorization: `bearer ${token}` })).toMatchObject({ status: 200 });
    } finally {
      await close(server);
    }
  });

  it('ignores client certificates entirely when no client CA is configured', async () => {
    const serving = await generateServingCertificates({ hosts: [] });
    const ca = await generateCertificateAuthority();
    const client = await issueClientCertificate(ca, { commonName: 'alice' });
    // The server does verify the certificate (authorized === true), but the Authenticator has no CA of its own.
    const server = createServer(
      {
        cert: serving.certPem,
        key: serving.keyPem,
        requestCert: true,
        rejectUnauthorized: false,
        ca: ca.certPem,
      },
      handler(new Authenticator({ tokens: new Map() })),
    );
    const port = await listen(server);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/whoami', agent: false, ca: serving.caCertPem, ...client },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(401);
    } finally {
      await close(server);
    }
  });

  it('treats every request as system:anonymous when disabled', async () => {
    const authenticator = new Authenticator({ tokens: new Map(), disabled: true });
    const server = createHttpServer(handler(authenticator));
    const port = await listen(server);
    try {
      const who = await (await fetch(`http://127.0.0.1:${port}/whoami`)).json();
      expect(who).toEqual({ name: 'system:anonymous', groups: ['system:unauthenticated'] });
    } finally {
      await close(server);
    }
  });

  it('rejects a client CA bundle without certificates', () => {
    expect(() => new Authenticator({ tokens: new Map(), clientCA: 'garbage' })).toThrow(/no PEM certificate/);
  });
});
