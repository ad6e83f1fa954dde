/**
 * The default ServiceCIDR controller after start: a deleted `kubernetes` ServiceCIDR is back at
 * the next period of the server's clock, Ready, and Services get addresses from it. (Meanwhile,
 * with no ServiceCIDR stored at all, the service range stands in: service-allocation.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../src/process/index.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import { DEFAULT_SERVICE_CIDR_PERIOD_MS } from '../../../src/server/controllers/default-service-cidr.js';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';

const CIDR = '/apis/networking.k8s.io/v1/servicecidrs/kubernetes';

describe('the default ServiceCIDR controller', () => {
  const clock = new ManualClock(Date.now());
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ clock });
    await ensureNamespace(server, 'cidr');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates the kubernetes ServiceCIDR again at its next period', async () => {
    const before = (await call(server, 'GET', CIDR)).body;
    expect((await call(server, 'DELETE', CIDR)).status).toBe(200);
    clock.advance(DEFAULT_SERVICE_CIDR_PERIOD_MS - 1000);
    expect((await call(server, 'GET', CIDR)).status).toBe(404);
    clock.advance(1000);
    await waitUntil(async () => (await call(server, 'GET', CIDR)).status === 200, 'kubernetes back');
    const after = (await call(server, 'GET', CIDR)).body;
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(after.spec).toEqual({ cidrs: ['10.96.0.0/12'] });
    expect(after.status.conditions).toMatchObject([{ type: 'Ready', status: 'True' }]);
    const made = await call(server, 'POST', '/api/v1/namespaces/cidr/services', {
      body: { metadata: { name: 'web' }, spec: { clusterIP: '10.96.0.50', ports: [{ port: 80 }] } },
    });
    expect(made.status, made.text).toBe(201);
    expect((await call(server, 'GET', '/apis/networking.k8s.io/v1/ipaddresses/10.96.0.50')).status).toBe(200);
  });
});
