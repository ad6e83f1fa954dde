/**
 * The runner fixtures (src/testing/fixtures/) driven by hand: hooks are
 * collected and called as a runner would, so the order of setup, teardown
 * and close, and what `.current` says outside a test, are checked exactly.
 */
import { describe, expect, it } from 'vitest';
import { clusterPerFile, clusterPerTest, type Hook } from '../../src/testing/fixtures/index.js';

function hooks() {
  const before: Array<() => Promise<void>> = [];
  const after: Array<() => Promise<void>> = [];
  const add =
    (list: Array<() => Promise<void>>): Hook =>
    (fn) =>
      list.push(fn);
  return { before, after, add };
}

describe('runner fixtures', () => {
  it('clusterPerTest: a cluster between the hooks, set up after it starts and torn down before it closes', async () => {
    const h = hooks();
    const order: string[] = [];
    const cluster = clusterPerTest(
      { beforeEach: h.add(h.before), afterEach: h.add(h.after) },
      {
        setup: async (c) => {
          order.push(`setup ${typeof c.url}`);
          return async () => {
            order.push('teardown');
            await c.client.resource('namespaces').get('default'); // still serving
          };
        },
      },
    );
    expect(() => cluster.current).toThrow(/clusterPerTest: no cluster here/);
    expect([h.before.length, h.after.length]).toEqual([1, 1]);
    await h.before[0]();
    const first = cluster.current;
    await first.client.resource('configmaps', 'default').create({ metadata: { name: 'a' } });
    await h.after[0]();
    expect(order).toEqual(['setup string', 'teardown']);
    expect(() => cluster.current).toThrow(/no cluster here/);
    await expect(fetch(`${first.url}/version`)).rejects.toThrow();
    // The next test's cluster is a new one.
    await h.before[0]();
    expect(cluster.current.url).not.toBe(first.url);
    expect((await cluster.current.client.resource('configmaps', 'default').list()).items).toEqual([]);
    await h.after[0]();
  });

  it('clusterPerFile: a setup that fails closes the cluster and fails the hook', async () => {
    const h = hooks();
    let url = '';
    const cluster = clusterPerFile(
      { beforeAll: h.add(h.before), afterAll: h.add(h.after) },
      {
        setup: async (c) => {
          url = c.url;
          throw new Error('operator failed to start');
        },
      },
    );
    await expect(h.before[0]()).rejects.toThrow('operator failed to start');
    expect(() => cluster.current).toThrow(/clusterPerFile: no cluster here/);
    await expect(fetch(`${url}/version`)).rejects.toThrow();
    await h.after[0](); // nothing left to close
  });
});
