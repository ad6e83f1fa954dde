/**
 * The cluster IP repair at start (bootstrap/service-ip-repair.ts): a Service whose IPAddress is
 * missing from the store gets it back when a server starts over that store.
 */
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/index.js';
import { call, ensureNamespace } from '../../helpers/server.js';

const ADDRESS = '/apis/networking.k8s.io/v1/ipaddresses/10.96.0.60';

describe('the cluster IP repair at start', () => {
  it('writes the IPAddress a stored Service lacks', async () => {
    const first = await startServer({ insecureHttp: true, insecureNoAuth: true });
    await ensureNamespace(first, 'repair');
    const made = await call(first, 'POST', '/api/v1/namespaces/repair/services', {
      body: { metadata: { name: 'web' }, spec: { clusterIP: '10.96.0.60', ports: [{ port: 80 }] } },
    });
    expect(made.status, made.text).toBe(201);
    expect((await call(first, 'DELETE', ADDRESS)).status).toBe(200);
    const snapshot = await first.snapshot();
    await first.close();
    const again = await startServer({ insecureHttp: true, insecureNoAuth: true, startFrom: snapshot });
    try {
      const repaired = await call(again, 'GET', ADDRESS);
      expect(repaired.status, repaired.text).toBe(200);
      expect(repaired.body.spec.parentRef).toEqual({
        resource: 'services',
        namespace: 'repair',
        name: 'web',
      });
      expect(repaired.body.metadata.labels['ipaddress.kubernetes.io/managed-by']).toBe('ipallocator.k8s.io');
      const taken = await call(again, 'POST', '/api/v1/namespaces/repair/services', {
        body: { metadata: { name: 'other' }, spec: { clusterIP: '10.96.0.60', ports: [{ port: 80 }] } },
      });
      expect(taken.status, taken.text).toBe(422);
    } finally {
      await again.close();
    }
  });
});
