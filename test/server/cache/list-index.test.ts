import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, pod, startTestServer } from '../../helpers/server.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
  for (const ns of ['one', 'two']) await ensureNamespace(s, ns);
  // 12 pods per namespace: 4 on node-a, 4 on node-b, 4 not scheduled yet.
  for (const ns of ['one', 'two']) {
    for (let i = 0; i < 12; i++) {
      const nodeName = i < 4 ? 'node-a' : i < 8 ? 'node-b' : undefined;
      const r = await call(s, 'POST', `/api/v1/namespaces/${ns}/pods`, {
        body: pod(`p${String(i).padStart(2, '0')}`, { nodeName }),
      });
      expect(r.status, r.text).toBe(201);
    }
  }
  // Churn the index: bind two pending pods to node-a, delete one of node-a's and one of node-b's.
  for (const name of ['p08', 'p09']) {
    // A pod's node is set through pods/binding (a spec update may not change it).
    const r = await call(s, 'POST', `/api/v1/namespaces/one/pods/${name}/binding`, {
      body: {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name },
        target: { kind: 'Node', name: 'node-a' },
      },
    });
    expect(r.status, r.text).toBe(201);
  }
  for (const name of ['p00', 'p04']) {
    expect((await call(s, 'DELETE', `/api/v1/namespaces/one/pods/${name}`)).status).toBe(200);
  }
});
afterAll(async () => {
  await s.close();
});

const names = (items: Array<{ metadata: { namespace: string; name: string } }>) =>
  items.map((p) => `${p.metadata.namespace}/${p.metadata.name}`);

async function examined(): Promise<{ cache: number; consistent: number }> {
  const stats = (await call(s, 'GET', '/debug/watchmark/stats')).body;
  return stats.listObjectsExamined;
}

describe('cache lists by spec.nodeName', () => {
  const cases: Array<[string, string]> = [
    ['node-a, one namespace', '/api/v1/namespaces/one/pods?fieldSelector=spec.nodeName%3Dnode-a'],
    ['node-b, all namespaces', '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-b'],
    ['unscheduled, all namespaces', '/api/v1/pods?fieldSelector=spec.nodeName%3D'],
    [
      'node-a and a label, all namespaces',
      '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-a&labelSelector=x',
    ],
  ];
  for (const [what, path] of cases) {
    it(`${what}: the node index answers what a scan of the store answers, visiting only that node's pods`, async () => {
      const consistent = await call(s, 'GET', path);
      expect(consistent.status, consistent.text).toBe(200);
      const before = await examined();
      const cached = await call(s, 'GET', `${path}&resourceVersion=0`);
      expect(cached.status, cached.text).toBe(200);
      const after = await examined();
      expect(names(cached.body.items)).toEqual(names(consistent.body.items));
      const visited = after.cache - before.cache;
      if (path.includes('labelSelector')) {
        // The label selector matches nothing: the list visited node-a's 9 pods, no others.
        expect(cached.body.items).toEqual([]);
        expect(visited).toBe(9);
      } else {
        expect(visited).toBe(cached.body.items.length);
      }
    });
  }

  it('the expected pods, after binds and deletes', async () => {
    const a = await call(s, 'GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-a&resourceVersion=0');
    expect(names(a.body.items)).toEqual([
      'one/p01',
      'one/p02',
      'one/p03',
      'one/p08',
      'one/p09',
      'two/p00',
      'two/p01',
      'two/p02',
      'two/p03',
    ]);
    const pending = await call(
      s,
      'GET',
      '/api/v1/namespaces/one/pods?fieldSelector=spec.nodeName%3D&resourceVersion=0',
    );
    expect(names(pending.body.items)).toEqual(['one/p10', 'one/p11']);
  });

  it('a limited cache list (resourceVersion N, NotOlderThan; "0" would ignore the limit) pages through the index and continues from the store, every pod once', async () => {
    const path = '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-a';
    const first = await call(s, 'GET', `${path}&limit=4&resourceVersion=1&resourceVersionMatch=NotOlderThan`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.items).toHaveLength(4);
    expect(first.body.metadata.continue).toBeTruthy();
    const rest = await call(s, 'GET', `${path}&limit=100&continue=${first.body.metadata.continue}`);
    expect(rest.status, rest.text).toBe(200);
    const all = await call(s, 'GET', path);
    expect([...names(first.body.items), ...names(rest.body.items)]).toEqual(names(all.body.items));
  });

  it('a scan without the index visits every pod', async () => {
    const before = await examined();
    const r = await call(s, 'GET', '/api/v1/pods?fieldSelector=spec.restartPolicy%3DNever&resourceVersion=0');
    expect(r.status, r.text).toBe(200);
    const after = await examined();
    expect(after.cache - before.cache).toBe(22);
  });
});
