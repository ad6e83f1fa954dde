import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore, type RunningServer } from '../../../src/server/index.js';
import { call, startTestServer } from '../../helpers/server.js';

const SYSTEM = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

const open: RunningServer[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function serve(opts: Parameters<typeof startTestServer>[0] = {}): Promise<RunningServer> {
  const server = await startTestServer(opts);
  open.push(server);
  return server;
}

async function namespaces(server: RunningServer): Promise<string[]> {
  const answer = await call(server, 'GET', '/api/v1/namespaces');
  expect(answer.status).toBe(200);
  return (answer.body.items as Array<{ metadata: { name: string } }>).map((n) => n.metadata.name).sort();
}

describe('system namespaces', () => {
  it('a new server has default, kube-system, kube-public and kube-node-lease, Active, like kube-apiserver', async () => {
    const server = await serve();
    expect(await namespaces(server)).toEqual(SYSTEM);
    const ns = await call(server, 'GET', '/api/v1/namespaces/default');
    expect(ns.body.status).toEqual({ phase: 'Active' });
    expect(ns.body.spec).toEqual({ finalizers: ['kubernetes'] });
    // So a namespaced create without -n works out of the box, as against a real cluster.
    const cm = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'x' } },
    });
    expect(cm.status).toBe(201);
  });

  it('a second server over the same store, or a restart, leaves them as they are', async () => {
    const store = new MemoryStore();
    const a = await serve({ store });
    const before = await call(a, 'GET', '/api/v1/namespaces/kube-system');
    const b = await serve({ store });
    expect(await namespaces(b)).toEqual(SYSTEM);
    const after = await call(b, 'GET', '/api/v1/namespaces/kube-system');
    expect(after.body.metadata.uid).toBe(before.body.metadata.uid);
    expect(after.body.metadata.resourceVersion).toBe(before.body.metadata.resourceVersion);
  });

  it('systemNamespaces: false (serve --no-system-namespaces) starts empty', async () => {
    const server = await serve({ systemNamespaces: false });
    expect(await namespaces(server)).toEqual([]);
  });
});
