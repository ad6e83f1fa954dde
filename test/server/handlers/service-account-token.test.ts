/**
 * serviceaccounts/token and the tokens it issues, checked as a client checks them: the JWT's
 * signature verified with node:crypto against the key set the server publishes at
 * /openid/v1/jwks, its claims read, and the token used as a bearer token and reviewed.
 */
import { createPublicKey, type JsonWebKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer({ insecureNoAuth: false, insecureHttp: false });
  await ensureNamespace(s, 'tok');
  const sa = await call(s, 'POST', '/api/v1/namespaces/tok/serviceaccounts', {
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
  });
  expect(sa.status, sa.text).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

const segment = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

async function issue(spec: Record<string, unknown> = {}) {
  const r = await call(s, 'POST', '/api/v1/namespaces/tok/serviceaccounts/robot/token', { body: { spec } });
  expect(r.status, r.text).toBe(201);
  return r.body as {
    metadata: Record<string, unknown>;
    spec: Record<string, unknown>;
    status: { token: string };
  };
}

describe('serviceaccounts/token', () => {
  it('issues an RS256 token whose signature the published key set verifies', async () => {
    const answer = await issue();
    expect(answer.spec).toEqual({
      audiences: ['https://kubernetes.default.svc.cluster.local'],
      expirationSeconds: 3600,
      boundObjectRef: null,
    });
    const [header, payload, signature] = answer.status.token.split('.') as [string, string, string];
    const jwks = await call(s, 'GET', '/openid/v1/jwks');
    expect(jwks.headers['content-type']).toBe('application/jwk-set+json');
    const key = (jwks.body.keys as JsonWebKey[])[0]!;
    expect(segment(header)).toEqual({ alg: 'RS256', kid: key.kid });
    const publicKey = createPublicKey({ key, format: 'jwk' });
    expect(
      verify('sha256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url')),
    ).toBe(true);
    const claims = segment(payload);
    expect(claims).toMatchObject({
      iss: 'https://kubernetes.default.svc.cluster.local',
      sub: 'system:serviceaccount:tok:robot',
      aud: ['https://kubernetes.default.svc.cluster.local'],
      'kubernetes.io': { namespace: 'tok', serviceaccount: { name: 'robot', uid: answer.metadata.uid } },
    });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.nbf).toBe(claims.iat);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('authenticates requests as the account, for the API audience only', async () => {
    const { token } = (await issue()).status;
    const me = await call(s, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      body: {},
      token,
    });
    expect(me.status, me.text).toBe(201);
    expect(me.body.status.userInfo.username).toBe('system:serviceaccount:tok:robot');
    expect(me.body.status.userInfo.groups).toEqual([
      'system:serviceaccounts',
      'system:serviceaccounts:tok',
      'system:authenticated',
    ]);
    const other = (await issue({ audiences: ['vault'] })).status.token;
    expect((await call(s, 'GET', '/api/v1/namespaces/tok/configmaps', { token: other })).status).toBe(401);
    const review = await call(s, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { spec: { token: other } },
    });
    expect(review.body.status.error).toBe(
      '[invalid bearer token, token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]]',
    );
  });

  it('refuses a token once its account is gone, and a token signed by another key', async () => {
    await call(s, 'POST', '/api/v1/namespaces/tok/serviceaccounts', {
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'gone' } },
    });
    const r = await call(s, 'POST', '/api/v1/namespaces/tok/serviceaccounts/gone/token', { body: {} });
    const token = r.body.status.token as string;
    await call(s, 'DELETE', '/api/v1/namespaces/tok/serviceaccounts/gone');
    const review = await call(s, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { spec: { token } },
    });
    expect(review.body.status).toEqual({
      user: {},
      error: '[invalid bearer token, serviceaccounts "gone" not found]',
    });
    const [h, p] = token.split('.');
    const forged = `${h}.${p}.${Buffer.from('not a signature').toString('base64url')}`;
    expect((await call(s, 'GET', '/api/v1/namespaces/tok/configmaps', { token: forged })).status).toBe(401);
  });

  it('validates the request as TokenREST does', async () => {
    const short = await call(s, 'POST', '/api/v1/namespaces/tok/serviceaccounts/robot/token', {
      body: { spec: { expirationSeconds: 10 } },
    });
    expect(short.status).toBe(422);
    expect(short.body.message).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 10: may not specify a duration less than 10 minutes',
    );
    const other = await call(s, 'POST', '/api/v1/namespaces/tok/serviceaccounts/robot/token', {
      body: { metadata: { name: 'x' } },
    });
    expect(other.body.message).toBe(
      'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "x": must match the service account name if specified',
    );
    const missing = await call(s, 'POST', '/api/v1/namespaces/tok/serviceaccounts/nobody/token', {
      body: {},
    });
    expect(missing.status).toBe(404);
    expect((await call(s, 'GET', '/api/v1/namespaces/tok/serviceaccounts/robot/token')).status).toBe(405);
  });

  it('publishes the issuer discovery document', async () => {
    const r = await call(s, 'GET', '/.well-known/openid-configuration');
    expect(r.body).toEqual({
      issuer: 'https://kubernetes.default.svc.cluster.local',
      jwks_uri: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/openid\/v1\/jwks$/),
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
    expect(r.headers['cache-control']).toBe('public, max-age=3600');
  });
});
