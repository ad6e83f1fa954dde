/**
 * The namespace controller follows the watch cache, so it works across API servers over one
 * etcd (issue 39): a namespace deleted through one server and released through another goes,
 * whichever server saw the DELETE, and even once that server is gone. No request triggers it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { etcdAvailable, settled, uniquePrefix, useEtcd } from '../../helpers/etcd.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

const MERGE = { 'content-type': 'application/merge-patch+json' };

describe.skipIf(!etcdAvailable)('a namespace deleted across API servers over one etcd', () => {
  const etcd = useEtcd();
  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    // Servers first (they stop watching), then their stores.
    for (const r of opened.splice(0).reverse()) await r.close();
  });

  /** A server over its own store on `prefix` (both closed after the test). */
  async function serverOn(prefix: string): Promise<RunningServer> {
    const store = etcd.newStore({ prefix });
    opened.push(store);
    const server = await startTestServer({ store });
    opened.push(server);
    return server;
  }

  /** A namespace holding one ConfigMap with a finalizer, created through `server`. */
  async function heldNamespace(server: RunningServer, ns: string): Promise<string> {
    await ensureNamespace(server, ns);
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    const created = await call(server, 'POST', cms, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'held', finalizers: ['example.com/x'] },
      },
    });
    expect(created.status, created.text).toBe(201);
    return `${cms}/held`;
  }

  /** Waits until the namespace is Terminating with its content held, as `server` reads it. */
  async function heldByItsContent(server: RunningServer, ns: string): Promise<void> {
    await waitUntil(async () => {
      const got = await call(server, 'GET', `/api/v1/namespaces/${ns}`);
      const conditions: Array<{ type: string; status: string }> = got.body.status?.conditions ?? [];
      return conditions.some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True');
    }, `namespace ${ns} Terminating, held by its content`);
  }

  async function release(server: RunningServer, path: string): Promise<void> {
    const r = await call(server, 'PATCH', path, { body: { metadata: { finalizers: null } }, headers: MERGE });
    expect(r.status, r.text).toBe(200);
  }

  const gone = (server: RunningServer, ns: string) => async () =>
    (await call(server, 'GET', `/api/v1/namespaces/${ns}`)).status === 404;

  it('deleted through A, its last finalizer released through B: the namespace goes', async () => {
    const prefix = uniquePrefix();
    const a = await serverOn(prefix);
    const b = await serverOn(prefix);
    const held = await heldNamespace(a, 'ha1');
    expect((await call(a, 'DELETE', '/api/v1/namespaces/ha1')).status).toBe(200);
    await heldByItsContent(a, 'ha1');
    await settled(b);
    await release(b, held);
    await waitUntil(gone(a, 'ha1'), 'namespace ha1 gone through A');
    await waitUntil(gone(b, 'ha1'), 'namespace ha1 gone through B');
  });

  it('deleted through B while A holds its content, B then stopped, released through A: it goes', async () => {
    const prefix = uniquePrefix();
    const a = await serverOn(prefix);
    const b = await serverOn(prefix);
    const held = await heldNamespace(a, 'ha2');
    await settled(b);
    expect((await call(b, 'DELETE', '/api/v1/namespaces/ha2')).status).toBe(200);
    await heldByItsContent(a, 'ha2');
    // Only A's controller is left: it must know by itself that the namespace is Terminating.
    await b.close();
    await release(a, held);
    await waitUntil(gone(a, 'ha2'), 'namespace ha2 gone');
  });

  it('a create through the other server is refused once the namespace is Terminating there too', async () => {
    const prefix = uniquePrefix();
    const a = await serverOn(prefix);
    const b = await serverOn(prefix);
    const held = await heldNamespace(a, 'ha3');
    expect((await call(a, 'DELETE', '/api/v1/namespaces/ha3')).status).toBe(200);
    await settled(b);
    const refused = await call(b, 'POST', '/api/v1/namespaces/ha3/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } },
    });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.message).toBe(
      'configmaps "late" is forbidden: unable to create new content in namespace ha3 because it is being terminated',
    );
    await release(b, held);
    await waitUntil(gone(b, 'ha3'), 'namespace ha3 gone');
  });
});
