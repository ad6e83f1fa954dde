/**
 * REST over real HTTP, a TLS server with authentication: what kube-apiserver answers, Status bodies included
 * (fixture.ts holds what the REST suites share; watch rules live in ../watch-protocol/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { call } from '../../../helpers/server.js';
import { expectStatus } from './fixture.js';

describe('TLS server with authentication', () => {
  let secure: RunningServer;
  beforeAll(async () => {
    secure = await startServer({ disableAdmissionPlugins: ['ServiceAccount'], compactionInterval: 0 });
  });
  afterAll(async () => {
    await secure?.close();
  });

  it('answers 401 with a Status for a missing or wrong token', async () => {
    expect(secure.url).toMatch(/^https:/);
    expect(secure.token).toBeTruthy();
    for (const token of ['', 'wrong']) {
      for (const path of ['/api/v1/pods', '/apis', '/metrics', '/debug/watchmark/stats']) {
        const r = await call(secure, 'GET', path, { token });
        expectStatus(r, 401, 'Unauthorized');
      }
    }
    const ok = await call(secure, 'GET', '/api/v1/pods');
    expect(ok.status, ok.text).toBe(200);
  });

  it('serves /healthz and /version without a token', async () => {
    const health = await call(secure, 'GET', '/healthz', { token: '' });
    expect([health.status, health.text]).toEqual([200, 'ok']);
    const version = await call(secure, 'GET', '/version', { token: '' });
    expect(version.status).toBe(200);
    expect(version.body.gitVersion).toMatch(/^v1\./);
  });
});
