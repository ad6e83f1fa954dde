/**
 * What the watch-protocol suites share: servers over a fresh store of one kind (memory or
 * etcd), closed after each test, and a pod create that waits for the watch cache. Over etcd the
 * watch cache follows the store through its watch, a moment after a write answers; tests that
 * look at the cache right after a write wait for it first (`settled`), which the memory store,
 * delivering synchronously, never needs.
 */
import { afterEach, expect } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import type { Store } from '../../../../src/server/stores/types.js';
import { type StoreKind, settled, useStores } from '../../../helpers/etcd.js';
import { call, ensureNamespace, pod, startTestServer } from '../../../helpers/server.js';

export const PODS = '/api/v1/namespaces/demo/pods';

/** Call inside a `describe`: registers the afterEach that closes what the suite started. */
export function watchServers(kind: StoreKind) {
  const stores = useStores(kind);
  const open: Array<{ server: RunningServer; store: Store }> = [];
  /** A server over a fresh store; closed (server, then store) after the test. */
  async function startOwned(opts: Parameters<typeof startTestServer>[0] = {}): Promise<RunningServer> {
    const store = stores.newStore();
    const s = await startTestServer({ ...opts, store });
    open.push({ server: s, store });
    return s;
  }
  async function server(opts: Parameters<typeof startTestServer>[0] = {}): Promise<RunningServer> {
    const s = await startOwned(opts);
    await ensureNamespace(s, 'demo');
    await settled(s);
    return s;
  }
  afterEach(async () => {
    for (const { server: s, store } of open.splice(0)) {
      await s.close();
      await store.close();
    }
  });

  async function createPod(s: RunningServer, name: string, extra: Parameters<typeof pod>[1] = {}) {
    const r = await call(s, 'POST', PODS, { body: pod(name, extra) });
    expect(r.status, r.text).toBe(201);
    await settled(s);
    return r.body;
  }
  return { startOwned, server, createPod };
}
