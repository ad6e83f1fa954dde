/**
 * The `kubernetes` Service in `default`, as kube-apiserver's kubernetes service controller keeps
 * it (the fidelity case bootstrap/kubernetes-service compares it with the reference's): there
 * from the start, in front of the server's own port, back as soon as it is deleted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../src/process/index.js';
import { MemoryStore, type RunningServer } from '../../../src/server/index.js';
import { call, startTestServer } from '../../helpers/server.js';

const PATH = '/api/v1/namespaces/default/services/kubernetes';
const open: RunningServer[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function serve(opts: Parameters<typeof startTestServer>[0] = {}): Promise<RunningServer> {
  const server = await startTestServer(opts);
  open.push(server);
  return server;
}

describe('the kubernetes Service', () => {
  it('exists from the start at 10.96.0.1:443, in front of the server port', async () => {
    const server = await serve();
    const svc = await call(server, 'GET', PATH);
    expect(svc.status).toBe(200);
    expect(svc.body.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    expect(svc.body.spec).toMatchObject({
      clusterIP: '10.96.0.1',
      clusterIPs: ['10.96.0.1'],
      type: 'ClusterIP',
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: Number(new URL(server.url).port) }],
    });
    expect(svc.body.metadata.managedFields?.[0]?.manager).toBe('kube-apiserver');
  });

  it('comes back with a new uid once deleted', async () => {
    const server = await serve();
    const before = await call(server, 'GET', PATH);
    expect((await call(server, 'DELETE', PATH)).status).toBe(200);
    const after = await waitUntil(async () => {
      const svc = await call(server, 'GET', PATH);
      return svc.status === 200 ? svc : undefined;
    }, 'the kubernetes Service to be created again');
    expect(after.body.metadata.uid).not.toBe(before.body.metadata.uid);
    expect(after.body.spec.clusterIP).toBe('10.96.0.1');
  });

  it('two servers starting at once over one store both start, with one Service between them', async () => {
    const store = new MemoryStore();
    const [a, b] = await Promise.all([serve({ store }), serve({ store })]);
    const fromA = await call(a, 'GET', PATH);
    const fromB = await call(b, 'GET', PATH);
    expect(fromA.status).toBe(200);
    expect(fromB.body.metadata.uid).toBe(fromA.body.metadata.uid);
  });

  it('is not made without the system namespaces (serve --no-system-namespaces)', async () => {
    const server = await serve({ systemNamespaces: false });
    expect((await call(server, 'GET', PATH)).status).toBe(404);
  });
});
